import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  type AnyRoute,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { type RenderOptions, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { type ProblemKind, problemType } from '../../shared/contract/index.ts';
import { modalsHostMounted } from '../lib/modals-host.ts';
import { SessionProvider } from '../session/session-context.tsx';
import { theme } from '../theme.ts';

// TestProviders mount the modals host directly (not lazily): callers need not wait for it.
modalsHostMounted();

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** The app's providers around a test, Mantine in test mode (no transitions). */
export function TestProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <ModalsProvider>
            <Notifications />
            {children}
          </ModalsProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** A `wrapper` for render/renderHook sharing one query client. */
export function createWrapper(queryClient: QueryClient = createTestQueryClient()) {
  return ({ children }: { children: ReactNode }) => <TestProviders queryClient={queryClient}>{children}</TestProviders>;
}

/** The one harness every component test renders through. */
export function renderWithProviders(
  ui: ReactElement,
  { queryClient = createTestQueryClient(), ...options }: RenderOptions & { queryClient?: QueryClient } = {},
) {
  return { user: userEvent.setup(), queryClient, ...render(ui, { wrapper: createWrapper(queryClient), ...options }) };
}

/** A component that renders links, inside a router of its own (at `/`, with no other routes: links go nowhere). */
export function inRouter(ui: ReactElement): ReactElement {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => ui }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  return <RouterProvider router={router} />;
}

/**
 * A signed-in page that reads its route's search (`getRouteApi('/_app/…')`), at its path under a pathless `_app`
 * layout as in the app, with the route's own search schema: `validateSearch` of its file route.
 */
export function atAppRoute(
  path: string,
  page: () => ReactElement,
  validateSearch?: AnyRoute['options']['validateSearch'],
  url = path,
): ReactElement {
  const root = createRootRoute({ component: Outlet });
  const app = createRoute({ getParentRoute: () => root, id: '_app', component: Outlet });
  const route = createRoute({ getParentRoute: () => app, path, validateSearch, component: page });
  const router = createRouter({
    routeTree: root.addChildren([app.addChildren([route])]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  return <RouterProvider router={router} />;
}

/** A fetch stand-in that answers from a script and records what it was asked. */
export function scriptedFetch(...answers: (Response | (() => Response) | Error)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    calls.push({ url: String(input), init });
    const next = answers.shift();
    if (next === undefined) throw new Error(`unexpected request ${String(input)}`);
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  };
  return { fetch, calls };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

export function problem(
  kind: ProblemKind,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ type: problemType(kind), title: kind, status, detail }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}

type Route = Response | ((call: { url: string; init: RequestInit }) => Response | Promise<Response>);

/**
 * A fetch stand-in that answers by method and path (`'GET /api/Device'`), for screens whose calls overlap in no fixed
 * order (a page's queries and its live stream). A route answers every time it is asked; unknown ones fail loudly.
 */
export function routedFetch(routes: Record<string, Route>) {
  const calls: { url: string; init: RequestInit; route: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const route = `${init.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`;
    calls.push({ url, init, route });
    const answer = routes[route];
    if (answer === undefined) throw new Error(`unexpected request ${route}`);
    const response = typeof answer === 'function' ? await answer({ url, init }) : answer;
    // The same Response cannot be read twice; a fixed answer is cloned for each call.
    return typeof answer === 'function' ? response : response.clone();
  };
  return { fetch, calls, called: (route: string) => calls.filter((call) => call.route === route) };
}

/** A route that answers `body` until `stop()`, then fails as an unreachable server does, until `back()`. */
export function serverThatStops(route: string, body: unknown) {
  let up = true;
  const routes = routedFetch({
    [route]: () => {
      if (!up) throw new TypeError('Failed to fetch');
      return json(body);
    },
  });
  return {
    routes,
    stop: () => {
      up = false;
    },
    back: () => {
      up = true;
    },
  };
}

/** A Server-Sent Events answer that stays open, and a way to send it events. */
export function eventStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(start) {
      controller = start;
    },
  });
  return {
    response: () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    send(id: number, type: string, data: unknown) {
      controller?.enqueue(encoder.encode(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
    },
  };
}
