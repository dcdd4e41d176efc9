import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type PushMessageUser, PushUserStatusCode } from '../../../../shared/contract/index.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { BulkBarContent } from '../../../ui/lists/bulk/bulk-bar-content.tsx';
import { bulkStatusActions } from './bulk-status-actions.ts';

const { Active, Disabled } = PushUserStatusCode;
const user = (Id: number, Status: number): PushMessageUser => ({
  Id,
  UserName: `ACME\\user${Id}`,
  DeviceType: 'iOS',
  CreatedTimeStampUtc: '2026-11-20 10:00:00.000',
  ModifiedTimestampUtc: '2026-11-20 10:00:00.000',
  Status: Status as PushMessageUser['Status'],
});

function renderBar(selected: PushMessageUser[]) {
  const start = vi.fn();
  renderWithProviders(
    <BulkBarContent
      count={selected.length}
      total={10}
      allSelected={false}
      onSelectAll={() => undefined}
      onClear={() => undefined}
      actions={bulkStatusActions(selected, start)}
    />,
  );
  return start;
}

describe('bulk status actions', () => {
  it('offers no change that changes nothing: all Active, no Activate', () => {
    renderBar([user(1, Active), user(2, Active), user(3, Active)]);
    expect(screen.queryByRole('button', { name: /^Activate/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Disable 3' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete 3' })).toBeInTheDocument();
  });

  it('with a mixed selection, says how many each change changes and runs it on those alone', () => {
    const selected = [user(1, Active), user(2, Disabled), user(3, Active)];
    const start = renderBar(selected);
    fireEvent.click(screen.getByRole('button', { name: 'Activate 1 of 3' }));
    expect(screen.getByRole('button', { name: 'Disable 2 of 3' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete 3' })).toBeInTheDocument();
    const [status, applies] = start.mock.calls[0] as [number, (row: PushMessageUser) => boolean];
    expect(status).toBe(Active);
    expect(selected.filter(applies).map((row) => row.Id)).toEqual([2]);
  });
});
