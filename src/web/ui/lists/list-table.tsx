import { Button, Checkbox, Group, Paper, rem, TableTr, VisuallyHidden } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import {
  type ComponentProps,
  type CSSProperties,
  createContext,
  type ReactNode,
  type Ref,
  useContext,
  useState,
} from 'react';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { TimestampFocusable } from '../text/timestamp.tsx';
import type { ListSelection } from './bulk/checkbox-selection.tsx';
import { ListCard } from './list-card.tsx';
import { useTableFits } from './use-table-fits.ts';
import type { VirtualTableHandle } from './virtual/use-window-list.ts';
import { VirtualCardList } from './virtual/virtual-card-list.tsx';
import { type VirtualRowProps, VirtualTableBody } from './virtual/virtual-table-body.tsx';

/** What a card needs to know about the list around it. */
export interface CardState {
  /** Select mode is on: the card's own actions step aside for the bulk actions. */
  selecting: boolean;
}

export interface ListTableProps<T> {
  /** The table's (and the card list's) accessible name. */
  label: string;
  /** The width (px) the table needs; where the list is narrower, rows render as cards instead. */
  minWidth: number;
  /** Column headings, left to right; an unlabelled actions column follows them. */
  headings: readonly string[];
  rows: readonly T[];
  rowKey: (row: T) => number;
  /** Renders one <tr>; spread `rowProps` onto it and put `selectCell` (when given) in its first cell. */
  renderRow: (row: T, index: number, rowProps: VirtualRowProps, selectCell: ReactNode | undefined) => ReactNode;
  /** Renders one row's card content (the narrow rendering): who, what, when, status, and touch-sized actions. */
  renderCard: (row: T, index: number, card: CardState) => ReactNode;
  /** About how tall (px) a card is, for the scrollbar before cards are measured. */
  cardHeight: number;
  /** How tall (px) a table row is, for the rows' window and the scrollbar: the more rows the estimate fits in view,
   * the more the first render builds. */
  rowHeight: number;
  /** A leading checkbox column, when the page offers bulk actions. */
  selection?: ListSelection<T> | undefined;
  /** Controls above the list (export); in the card rendering they share a line with the Select button. */
  toolbar?: ReactNode;
  handle?: Ref<VirtualTableHandle> | undefined;
}

/**
 * Mantine's Table classes. The table is plain elements with them, as Mantine's Table with row borders and
 * highlightOnHover renders it. Table.Tr and Table.Td resolve their styles (theme, table context, props) on every
 * render, for each of a row's cells, a large share of a list's render. And Table itself brings Table.ScrollContainer,
 * with ScrollArea and Floating UI under it (the `overlays` chunk), to every list page's first load.
 */
const table = TableTr.classes;

/** A body row of ListTable, as a plain <tr> (see `table`). */
export function ListRow(props: ComponentProps<'tr'>) {
  return <tr className={table.tr} data-with-row-border data-hover {...props} />;
}

/** A body cell of ListTable, as a plain <td> (see `table`). */
export function ListCell(props: ComponentProps<'td'>) {
  return <td className={table.td} {...props} />;
}

const CompactContext = createContext(false);

/** True inside a table that is short of room (a tablet): rows stack their buttons and break long e-mail addresses. */
export function useCompactTable(): boolean {
  return useContext(CompactContext);
}

/**
 * The lists' shared frame, with two renderings of the same rows: a real, labelled <table> with virtualized rows
 * and an optional selection column where it fits, and a virtualized list of cards (select mode, long press)
 * where it does not, so a phone never scrolls sideways.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const [ref, fits, compact] = useTableFits(props.minWidth);
  return (
    <div ref={ref}>
      {/* A row's times are no Tab stops of their own: Tab goes from row to row's actions. */}
      <TimestampFocusable value={false}>
        {fits ? (
          <CompactContext value={compact}>
            <TableRendering {...props} compact={compact} />
          </CompactContext>
        ) : (
          <CardRendering {...props} />
        )}
      </TimestampFocusable>
    </div>
  );
}

function TableRendering<T>({
  label,
  minWidth,
  headings,
  rows,
  rowKey,
  renderRow,
  rowHeight,
  selection,
  toolbar,
  handle,
  compact,
}: ListTableProps<T> & { compact: boolean }) {
  return (
    <>
      {toolbar && (
        <Group justify="flex-end" mb="xs">
          {toolbar}
        </Group>
      )}
      <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
        {/* The table is only rendered where it fits (the cards take over otherwise), so this rarely scrolls: the
            browser's own overflow, as Table.ScrollContainer type="native" has it. */}
        <div
          className={table.scrollContainer}
          style={{ '--table-min-width': rem(minWidth), '--table-overflow': 'auto' } as CSSProperties}
        >
          <div className={table.scrollContainerInner}>
            <table
              className={table.table}
              style={
                {
                  '--table-horizontal-spacing': `var(--mantine-spacing-${compact ? 'xs' : 'md'})`,
                  '--table-vertical-spacing': 'var(--mantine-spacing-sm)',
                } as CSSProperties
              }
              aria-label={label}
              aria-rowcount={rows.length + 1}
            >
              <thead className={table.thead}>
                <ListRow aria-rowindex={1}>
                  {selection && (
                    <th className={table.th} style={{ width: rem(40) }}>
                      {selection.header}
                    </th>
                  )}
                  {headings.map((heading) => (
                    <th key={heading} className={table.th}>
                      {heading}
                    </th>
                  ))}
                  <th className={table.th}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </th>
                </ListRow>
              </thead>
              <VirtualTableBody
                rows={rows}
                rowKey={rowKey}
                estimateSize={rowHeight}
                columns={headings.length + 1 + (selection ? 1 : 0)}
                handle={handle}
                renderRow={(row, index, rowProps) => renderRow(row, index, rowProps, selection?.cell(row, index))}
              />
            </table>
          </div>
        </div>
      </Paper>
    </>
  );
}

function CardRendering<T>({
  label,
  rows,
  rowKey,
  renderCard,
  cardHeight,
  selection,
  toolbar,
  handle,
}: ListTableProps<T>) {
  const [selecting, setSelecting] = useState(false);
  const state = selection?.state;
  const active = selecting && state !== undefined;
  const card: CardState = { selecting: active };

  return (
    <>
      {/* Only when there is something to put in it: an empty touch-height line read as a gap above the cards. */}
      {(state || toolbar) && (
        <Group justify="space-between" gap="sm" mb="sm" mih={TOUCH_TARGET} wrap="nowrap">
          {state &&
            (active ? (
              <Checkbox
                size="md"
                label={`Select all ${rows.length}`}
                checked={state.allSelected}
                indeterminate={!state.allSelected && state.selectedIds.length > 0}
                onChange={(event) => (event.currentTarget.checked ? state.selectAll() : state.clear())}
                styles={{ body: { alignItems: 'center', minHeight: TOUCH_TARGET } }}
              />
            ) : (
              <Button
                variant="default"
                h={TOUCH_TARGET}
                leftSection={<IconChecks size={18} />}
                onClick={() => setSelecting(true)}
              >
                Select
              </Button>
            ))}
          <Group gap="sm" ml="auto" wrap="nowrap">
            {active ? (
              <Button
                variant="default"
                h={TOUCH_TARGET}
                onClick={() => {
                  setSelecting(false);
                  state.clear();
                }}
              >
                Done
              </Button>
            ) : (
              toolbar
            )}
          </Group>
        </Group>
      )}
      <VirtualCardList
        label={label}
        rows={rows}
        rowKey={rowKey}
        estimateSize={cardHeight}
        handle={handle}
        renderCard={(row, index) => (
          <ListCard
            selecting={active}
            selected={state?.isSelected(row) ?? false}
            selectLabel={selection?.rowLabel(row)}
            onToggle={() => state?.toggleOne(row)}
            onLongPress={
              state &&
              (() => {
                setSelecting(true);
                if (!state.isSelected(row)) state.toggleOne(row);
              })
            }
          >
            {renderCard(row, index, card)}
          </ListCard>
        )}
      />
    </>
  );
}
