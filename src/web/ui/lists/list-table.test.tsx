import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { Timestamp } from '../text/timestamp.tsx';
import { ListTable, type ListTableProps } from './list-table.tsx';

interface Row {
  id: number;
  name: string;
}

const ROWS: Row[] = [
  { id: 1, name: 'ACME\\alice.ng' },
  { id: 2, name: 'ACME\\bram.de.vries' },
];

/** Wider than any test window: the rows render as cards. */
const cards = (props: Partial<ListTableProps<Row>> = {}) => (
  <ListTable<Row>
    label="People"
    minWidth={100_000}
    headings={['Name']}
    rows={ROWS}
    rowKey={(row) => row.id}
    renderRow={(row, _index, rowProps) => (
      <tr key={row.id} {...rowProps}>
        <td>{row.name}</td>
      </tr>
    )}
    renderCard={(row) => <span>{row.name}</span>}
    cardHeight={100}
    rowHeight={48}
    {...props}
  />
);

describe('ListTable as cards', () => {
  it('puts nothing above the cards when there is neither Select nor a toolbar (no empty line reads as a gap)', () => {
    renderWithProviders(cards());
    const list = screen.getByRole('list', { name: 'People' });
    // The list's own container (it sizes the virtualized cards) comes first in the frame, with nothing before it.
    const frame = list.parentElement?.parentElement;
    expect(frame?.firstElementChild).toBe(list.parentElement);
  });

  it("makes a row's times no Tab stops of their own", () => {
    const { container } = renderWithProviders(
      cards({ renderCard: (row) => <Timestamp value={`2025-01-0${row.id} 03:04:05.000`} /> }),
    );
    const times = container.querySelectorAll('time');
    expect(times).toHaveLength(2);
    for (const time of times) expect(time).not.toHaveAttribute('tabindex');
  });

  it('keeps the toolbar line when there is a toolbar', () => {
    renderWithProviders(cards({ toolbar: <button type="button">Export CSV</button> }));
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });
});
