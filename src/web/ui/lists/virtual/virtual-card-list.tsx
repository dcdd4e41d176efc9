import { memo, type ReactNode, type Ref, useRef } from 'react';
import { useWindowList, type VirtualTableHandle } from './use-window-list.ts';

export interface VirtualCardListProps<T> {
  /** The list's accessible name. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => number;
  renderCard: (row: T, index: number) => ReactNode;
  /** A first guess at a card's height (px); each rendered card is then measured. */
  estimateSize: number;
  /** Space between cards (px). */
  gap?: number;
  handle?: Ref<VirtualTableHandle> | undefined;
}

/**
 * The phone rendering of a list: cards in a labelled list, virtualized against the window scroll like the table.
 * Cards wrap their text, so unlike table rows each one is measured (a phone shows a handful at a time).
 */
export function VirtualCardList<T>({
  label,
  rows,
  rowKey,
  renderCard,
  estimateSize,
  gap = 12,
  handle,
}: VirtualCardListProps<T>) {
  const outerRef = useRef<HTMLDivElement>(null);
  const virtualizer = useWindowList({
    start: outerRef,
    rows,
    rowKey,
    estimateSize: estimateSize + gap,
    overscan: 4,
    handle,
  });

  const items = virtualizer.getVirtualItems();
  const offset = items[0] ? items[0].start - virtualizer.options.scrollMargin : 0;

  return (
    <div ref={outerRef} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      <ul
        aria-label={label}
        style={{
          position: 'absolute',
          top: 0,
          left: 0,
          width: '100%',
          margin: 0,
          padding: 0,
          listStyle: 'none',
          transform: `translateY(${offset}px)`,
        }}
      >
        {items.map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          return (
            <li
              key={item.key}
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ paddingBottom: gap }}
            >
              <RenderedCard row={row} index={item.index} renderCard={renderCard} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}

interface RenderedCardProps<T> {
  row: T;
  index: number;
  renderCard: (row: T, index: number) => ReactNode;
}

/** One card's content: skipped while scrolling when it stays in the window (see VirtualTableBody's rows). */
const RenderedCard = memo(function RenderedCard({ row, index, renderCard }: RenderedCardProps<unknown>) {
  return renderCard(row, index);
}) as <T>(props: RenderedCardProps<T>) => ReactNode;
