import { memo, type ReactNode, type Ref, useRef } from 'react';
import { useWindowList, type VirtualTableHandle } from './use-window-list.ts';

export interface VirtualTableBodyProps<T> {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Renders one <tr>; spread `rowProps` onto it (aria-rowindex). */
  renderRow: (row: T, index: number, rowProps: VirtualRowProps) => ReactNode;
  /**
   * Row height in px. Rows are not measured one by one (a layout read per row costs scrolling frames); the
   * spacers use this height, so rows should be about this tall.
   */
  estimateSize: number;
  columns: number;
  handle?: Ref<VirtualTableHandle>;
  overscan?: number;
}

export interface VirtualRowProps {
  'data-index': number;
  'aria-rowindex': number;
}

/**
 * A real <tbody> whose rows are virtualized against the window scroll: spacer rows above and below keep
 * the table's height (and the scrollbar) true while only the rows in view (plus overscan) are rendered.
 * Row indices are announced with aria-rowindex (the header row is 1), the table should set aria-rowcount.
 */
export function VirtualTableBody<T>({
  rows,
  rowKey,
  renderRow,
  estimateSize,
  columns,
  handle,
  overscan = 6,
}: VirtualTableBodyProps<T>) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useWindowList({ start: bodyRef, rows, rowKey, estimateSize, overscan, handle });

  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const top = first ? first.start - virtualizer.options.scrollMargin : 0;
  const bottom = last ? virtualizer.getTotalSize() - (last.end - virtualizer.options.scrollMargin) : 0;

  return (
    <tbody ref={bodyRef}>
      {top > 0 && (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer row, nothing in it can take focus
        <tr aria-hidden="true" style={{ height: top }}>
          <td colSpan={columns} style={{ padding: 0, border: 0 }} />
        </tr>
      )}
      {items.map((item) => {
        const row = rows[item.index];
        if (row === undefined) return null;
        return <VirtualRow key={item.key} row={row} index={item.index} renderRow={renderRow} />;
      })}
      {bottom > 0 && (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer row, nothing in it can take focus
        <tr aria-hidden="true" style={{ height: bottom }}>
          <td colSpan={columns} style={{ padding: 0, border: 0 }} />
        </tr>
      )}
    </tbody>
  );
}

interface RenderedRowProps<T> {
  row: T;
  index: number;
  renderRow: VirtualTableBodyProps<T>['renderRow'];
}

/**
 * One rendered row. Scrolling re-renders the body every frame; a row still in the window keeps its row, index and
 * render function, so it is skipped and only the rows coming into view render. `renderRow` changes (and every row
 * renders again) only when the table itself renders again.
 */
const VirtualRow = memo(function VirtualRow({ row, index, renderRow }: RenderedRowProps<unknown>) {
  return renderRow(row, index, { 'data-index': index, 'aria-rowindex': index + 2 });
}) as <T>(props: RenderedRowProps<T>) => ReactNode;
