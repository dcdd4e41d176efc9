import { Paper, Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode, Ref } from 'react';
import { type VirtualRowProps, VirtualTableBody, type VirtualTableHandle } from './virtual-table-body.tsx';

export interface ListSelection<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
}

export interface ListTableProps<T> {
  /** The table's accessible name. */
  label: string;
  minWidth: number;
  /** Column headings, left to right; an unlabelled actions column follows them. */
  headings: readonly string[];
  rows: readonly T[];
  rowKey: (row: T) => number;
  /** Renders one <tr>; spread `rowProps` onto it and put `selectCell` (when given) in its first cell. */
  renderRow: (row: T, index: number, rowProps: VirtualRowProps, selectCell: ReactNode | undefined) => ReactNode;
  /** A leading checkbox column, when the page offers bulk actions. */
  selection?: ListSelection<T> | undefined;
  handle?: Ref<VirtualTableHandle> | undefined;
}

/** The lists' shared frame: a real, labelled <table> with virtualized rows and an optional selection column. */
export function ListTable<T>({
  label,
  minWidth,
  headings,
  rows,
  rowKey,
  renderRow,
  selection,
  handle,
}: ListTableProps<T>) {
  return (
    <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          highlightOnHover
          aria-label={label}
          aria-rowcount={rows.length + 1}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
              {selection && <Table.Th w={40}>{selection.header}</Table.Th>}
              {headings.map((heading) => (
                <Table.Th key={heading}>{heading}</Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <VirtualTableBody
            rows={rows}
            rowKey={rowKey}
            estimateSize={62}
            columns={headings.length + 1 + (selection ? 1 : 0)}
            handle={handle}
            renderRow={(row, index, rowProps) => renderRow(row, index, rowProps, selection?.cell(row, index))}
          />
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
