import { act, renderHook } from '@testing-library/react';
import type { MouseEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../shared/contract/index.ts';
import { createWrapper } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { useListPage } from './use-list-page.tsx';

interface Row {
  Id: number;
  Name: string;
}
const rows: Row[] = [
  { Id: 1, Name: 'ann' },
  { Id: 2, Name: 'bob' },
  { Id: 3, Name: 'anna' },
];
const fields = (row: Row) => [row.Name];
const selection = {
  endpoint: endpoints.authorizeDevice,
  idOf: (row: Row) => row.Id,
  rowLabel: (row: Row) => row.Name,
  noun: 'rows',
};

function setup(q: string | undefined) {
  const navigate = vi.fn();
  const hook = renderHook(
    () => useListPage<Row, { q?: string }, 'approve'>({ data: rows, q, fields, selection, navigate }),
    {
      wrapper: createWrapper(),
    },
  );
  return { hook, navigate };
}

const click = (checked: boolean) => ({ currentTarget: { checked }, shiftKey: false }) as MouseEvent<HTMLInputElement>;

describe('useListPage', () => {
  it('shows the rows the URL’s search matches, and merges a search change into the URL', () => {
    signInAs(['Read', 'Write']);
    const { hook, navigate } = setup('ann');
    expect(hook.result.current.rows.map((row) => row.Id)).toEqual([1, 3]);
    act(() => hook.result.current.changeSearch({ q: 'bob' }));
    const [{ search, replace }] = navigate.mock.calls[0] as [{ search: (prev: object) => object; replace: boolean }];
    expect(search({ view: 'all', q: 'ann' })).toEqual({ view: 'all', q: 'bob' });
    expect(replace).toBe(true);
  });

  it('offers selection only to people who may run the bulk action, and bulk takes the selected rows', () => {
    signInAs(['Read']);
    expect(setup(undefined).hook.result.current.selectionColumn).toBeUndefined();

    signInAs(['Read', 'Write']);
    const { hook } = setup(undefined);
    expect(hook.result.current.selectionColumn).toBeDefined();
    act(() => hook.result.current.selection.toggle(rows[2] as Row, 2, click(true)));
    act(() => hook.result.current.startBulk('approve'));
    expect(hook.result.current.bulk).toEqual({ action: 'approve', rows: [rows[2]] });
    act(() => hook.result.current.endBulk());
    // A bulk action that applies to some of the selection takes those alone.
    act(() => hook.result.current.selection.toggle(rows[0] as Row, 0, click(true)));
    expect(hook.result.current.selectedRows.map((row) => row.Id).sort()).toEqual([1, 3]);
    act(() => hook.result.current.startBulk('approve', (row) => row.Name === 'ann'));
    expect(hook.result.current.bulk).toEqual({ action: 'approve', rows: [rows[0]] });
    act(() => hook.result.current.endBulk());
    expect(hook.result.current.bulk).toBeNull();
  });
});
