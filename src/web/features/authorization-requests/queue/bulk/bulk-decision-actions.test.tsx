import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuthorizationRequest, AuthorizationRequestStatus } from '../../../../../shared/contract/index.ts';
import { renderWithProviders } from '../../../../test/render.tsx';
import { BulkBarContent } from '../../../../ui/lists/bulk/bulk-bar-content.tsx';
import { bulkDecisionActions } from './bulk-decision-actions.ts';

const request = (Id: number, Status: AuthorizationRequestStatus) =>
  ({ Id, Status, UserName: `ACME\\user${Id}` }) as AuthorizationRequest;
const isPending = (row: AuthorizationRequest) => row.Status === 'Pending';

function renderBar(selected: AuthorizationRequest[]) {
  const start = vi.fn();
  const { actions, nothingToDo } = bulkDecisionActions(selected, isPending, start);
  renderWithProviders(
    <BulkBarContent
      count={selected.length}
      total={10}
      allSelected={false}
      onSelectAll={() => undefined}
      onClear={() => undefined}
      actions={actions}
      nothingToDo={nothingToDo}
    />,
  );
  return start;
}

describe('bulk decision actions', () => {
  it('offers Approve and Reject for the pending among the selection, saying how many', () => {
    const start = renderBar([request(1, 'Pending'), request(2, 'Authorized'), request(3, 'Pending')]);
    fireEvent.click(screen.getByRole('button', { name: 'Approve 2 of 3' }));
    expect(start).toHaveBeenCalledWith('approve');
    expect(screen.getByRole('button', { name: 'Reject 2 of 3' })).toBeInTheDocument();
  });

  it('offers nothing for decided requests, and says why', () => {
    renderBar([request(1, 'Authorized'), request(2, 'Rejected')]);
    expect(screen.queryByRole('button', { name: /^(Approve|Reject)/ })).toBeNull();
    expect(screen.getByText('All of them are already decided: nothing to approve or reject.')).toBeInTheDocument();
  });

  it('counts plainly when every selected request is pending', () => {
    renderBar([request(1, 'Pending'), request(2, 'Pending')]);
    expect(screen.getByRole('button', { name: 'Approve 2' })).toBeInTheDocument();
  });
});
