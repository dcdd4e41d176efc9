import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { authorizationRequestQueries } from '../api/queries/queries.ts';
import { testSession } from '../test/session.ts';
import { startFirstRequest } from './first-request.ts';

function setup(signedIn: boolean) {
  const queryClient = new QueryClient();
  // Stands in for the request: only which queries are started matters here.
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue([]);
  const session = signedIn ? testSession() : null;
  return { ensure, context: { queryClient, session: () => session } };
}

describe('startFirstRequest', () => {
  it('starts the queue loader’s queries for the opened view and the pending count', () => {
    const { ensure, context } = setup(true);
    startFirstRequest(context, { routeId: '/_app/authorization-requests/', search: { view: 'all' } });
    expect(ensure.mock.calls.map(([options]) => options.queryKey)).toEqual([
      authorizationRequestQueries.list({ view: 'all' }).queryKey,
      authorizationRequestQueries.list({ view: 'pending' }).queryKey,
    ]);
  });

  it('starts nothing signed out (the router sends the person to sign in) or on another page', () => {
    const signedOut = setup(false);
    startFirstRequest(signedOut.context, { routeId: '/_app/authorization-requests/', search: { view: 'pending' } });
    expect(signedOut.ensure).not.toHaveBeenCalled();
    const elsewhere = setup(true);
    startFirstRequest(elsewhere.context, { routeId: '/_app/push-users/', search: {} });
    startFirstRequest(elsewhere.context, undefined);
    expect(elsewhere.ensure).not.toHaveBeenCalled();
  });
});
