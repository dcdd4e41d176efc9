import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import type { Endpoint } from '../../../shared/contract/index.ts';
import { createApiClient } from '../../api/core/client.ts';
import { endpointQuery } from '../../api/queries/endpoint-query.ts';
import { json, renderWithProviders, scriptedFetch } from '../../test/render.tsx';
import { signInAs, testSession } from '../../test/session.ts';
import { prefetchIfAllowed } from '../../wiring/prefetch.ts';
import { EndpointGate } from './endpoint-gate.tsx';

vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@tanstack/react-router')>()),
  createLink: () => (props: { children?: React.ReactNode }) => <a href="/settings">{props.children}</a>,
}));

// The recipe's step 2 for a made-up endpoint: a catalogue entry, as endpoints.ts declares one (not in the catalogue,
// so nothing else knows it). Everything below reads what it needs from this one name.
const sampleWidgets = {
  seedNumber: null,
  method: 'GET',
  path: '/Consumer/Widgets/:id',
  aliases: [],
  summary: 'Read a widget',
  access: { kind: 'permission', entity: 'Accounts', permission: 'Read' },
  since: '3.2',
  until: null,
  obsolete: null,
  demoOnly: false,
  noStore: false,
  params: z.object({ id: z.coerce.number() }),
  response: z.object({ Id: z.number(), Name: z.string() }),
} as const satisfies Endpoint;

function setup() {
  const scripted = scriptedFetch(json({ Id: 4, Name: 'Sprocket' }));
  const client = createApiClient({
    baseUrl: () => '/api',
    apiVersion: () => '3.3',
    token: () => 'tok',
    consumerName: () => 'Test',
    fetch: scripted.fetch,
  });
  // The recipe's step 5: the query, named once by its entry (no wrapper function for the endpoint).
  const widgetQueries = {
    detail: endpointQuery(
      sampleWidgets,
      (id: number) => ({ queryKey: ['widgets', id] as const, call: { params: { id } } }),
      client,
    ),
  };
  return { widgetQueries, calls: scripted.calls };
}

const accountsReader = [{ Entity: 'Accounts', Permissions: ['Read' as const] }];

describe('an endpoint with its page, named once', () => {
  it('the query carries its catalogue entry, and calls that endpoint through the one client', async () => {
    const { widgetQueries, calls } = setup();
    expect(widgetQueries.detail.endpoint).toBe(sampleWidgets);
    expect(widgetQueries.detail(4).endpoint).toBe(sampleWidgets);
    const widget = await new QueryClient().fetchQuery(widgetQueries.detail(4));
    expect(widget).toEqual({ Id: 4, Name: 'Sprocket' });
    expect(calls.map((call) => [call.init.method, call.url])).toEqual([['GET', '/api/Consumer/Widgets/4']]);
  });

  it('the route’s loader fetches it only for people the entry allows, in versions that have it', async () => {
    const { widgetQueries, calls } = setup();
    const load = (session = testSession()) =>
      prefetchIfAllowed({ queryClient: new QueryClient(), session: () => session }, widgetQueries.detail(4));
    await load(testSession()); // Security only: the entry asks for Accounts Read
    await load(testSession({ permissions: accountsReader, apiVersion: '3.1' })); // before the entry's `since`
    expect(calls).toHaveLength(0);
    await load(testSession({ permissions: accountsReader }));
    expect(calls).toHaveLength(1);
  });

  it('the page’s gate reads the permission and the versions from the query', () => {
    const { widgetQueries } = setup();
    signInAs(['Read', 'Write']);
    const { unmount } = renderWithProviders(
      <EndpointGate query={widgetQueries.detail} feature="Widgets">
        <p>the widget</p>
      </EndpointGate>,
    );
    expect(screen.queryByText('the widget')).toBeNull();
    expect(screen.getByText(/requires the Read permission on Accounts/)).toBeInTheDocument();
    unmount();

    signInAs([], { permissions: accountsReader, apiVersion: '3.1' });
    const older = renderWithProviders(
      <EndpointGate query={widgetQueries.detail} feature="Widgets">
        <p>the widget</p>
      </EndpointGate>,
    );
    expect(screen.queryByText('the widget')).toBeNull();
    expect(screen.getByText('Widgets: added in API 3.2')).toBeInTheDocument();
    older.unmount();

    signInAs([], { permissions: accountsReader });
    renderWithProviders(
      <EndpointGate query={widgetQueries.detail} feature="Widgets">
        <p>the widget</p>
      </EndpointGate>,
    );
    expect(screen.getByText('the widget')).toBeInTheDocument();
  });
});
