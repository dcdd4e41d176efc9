import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PersonSummary } from '../../../../shared/contract/index.ts';
import { peopleQueries } from '../../../api/queries/people-queries.ts';
import { atAppRoute, renderWithProviders, serverThatStops } from '../../../test/render.tsx';
import { signInAs } from '../../../test/session.ts';
import { PeoplePage } from './people-page.tsx';
import { PeopleSearch } from './people-search.ts';

const jane: PersonSummary = {
  UserName: 'ACME\\jane',
  HasAccount: true,
  LastSignInUtc: null,
  Devices: 2,
  ActiveDevices: 1,
  PendingRequests: 1,
  OpenReports: 0,
};

afterEach(() => vi.unstubAllGlobals());

describe('the People list while the server is unreachable', () => {
  it('keeps the people it showed, with their counts, says the server is unreachable, and recovers on Try again', async () => {
    signInAs(['Read']);
    const server = serverThatStops('GET /api/People', [jane]);
    vi.stubGlobal('fetch', server.routes.fetch);
    const { user, queryClient } = renderWithProviders(atAppRoute('/people/', PeoplePage, PeopleSearch));
    expect(await screen.findByRole('link', { name: 'ACME\\jane' })).toBeInTheDocument();

    server.stop();
    await queryClient.refetchQueries({ queryKey: peopleQueries.all });
    const notice = await screen.findByTestId('stale-list');
    expect(notice).toHaveTextContent('Cannot reach the server');
    expect(notice).toHaveTextContent('Below is the list as it was last shown');
    expect(screen.getByRole('link', { name: 'ACME\\jane' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Everyone (1)' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    server.back();
    await user.click(within(notice).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('stale-list')).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'ACME\\jane' })).toBeInTheDocument();
  });

  it('says so in the list’s place, with no "(0)" counts, when it never had an answer', async () => {
    signInAs(['Read']);
    const server = serverThatStops('GET /api/People', [jane]);
    server.stop();
    vi.stubGlobal('fetch', server.routes.fetch);
    renderWithProviders(atAppRoute('/people/', PeoplePage, PeopleSearch));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the server');
    expect(screen.getByRole('radio', { name: 'Everyone' })).toBeInTheDocument();
    expect(screen.queryByText(/\(0\)/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('stale-list')).not.toBeInTheDocument();
  });
});
