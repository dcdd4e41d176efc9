import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { ApiError } from '../../../api/core/api-error.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { StaleListNotice } from '../../../ui/lists/stale-list-notice.tsx';
import { PushUserToolbar } from './push-user-toolbar.tsx';

const user = { Id: 1, UserName: 'ACME\\gus.moreno', Status: 1 } as PushMessageUser;

describe('the push users status filters', () => {
  it('count what the list holds', () => {
    renderWithProviders(<PushUserToolbar status="all" q={undefined} users={[user]} onChange={() => {}} />);
    expect(screen.getByRole('radio', { name: 'All (1)' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Disabled (0)' })).toBeInTheDocument();
  });

  it('count nothing while there is no list (the server never reached), instead of "(0)" everywhere', () => {
    renderWithProviders(<PushUserToolbar status="all" q={undefined} users={undefined} onChange={() => {}} />);
    expect(screen.getByRole('radio', { name: 'All' })).toBeInTheDocument();
    expect(screen.queryByText(/\(0\)/)).not.toBeInTheDocument();
  });
});

describe('StaleListNotice', () => {
  it('says the server is unreachable and that the rows below are as last shown', () => {
    // What the client throws when fetch fails: the server stopped.
    const unreachable = new ApiError({
      kind: 'network',
      status: 0,
      title: 'Cannot reach the server',
      detail: 'No answer from /api.',
    });
    renderWithProviders(<StaleListNotice error={unreachable} onRetry={() => {}} />);
    const notice = screen.getByTestId('stale-list');
    expect(notice).toHaveTextContent(/reach the server/i);
    expect(notice).toHaveTextContent('Below is the list as it was last shown');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
