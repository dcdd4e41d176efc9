import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './reduced-motion.css';
import { StrictMode, startTransition } from 'react';
import { App } from './app.tsx';
import { watchLostSession } from './lost-session.ts';
import { createAppQueryClient } from './query-client.ts';
import { createRoot } from './react-stage.ts';
import type { FileRoutesById } from './route-tree.gen.ts';
import { createAppRouter } from './router.tsx';
import { currentSession } from './session/session-store.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * Resolves in a task of its own: the work after it does not add up with the work before it into one long task. The
 * browser's task scheduler (where there is one) runs it ahead of the other queued work, the preloaded chunks'
 * compilation and the like, which would otherwise hold the page's request back; a tap still comes first.
 */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const scheduler = (globalThis as { scheduler?: { postTask?: (task: () => void, options: object) => unknown } })
      .scheduler;
    if (scheduler?.postTask) void scheduler.postTask(resolve, { priority: 'user-blocking' });
    else setTimeout(resolve, 0);
  });

/** The router's own pendingMs: by then a load still under way would show its loading state anyway. */
const FIRST_RENDER_LATEST_MS = 1000;

async function start(root: HTMLElement) {
  // Evaluating the app's code is one long task on a phone's CPU already; creating the router, matching the page and
  // starting its request come after a pause in which a tap can be answered.
  await nextTask();
  const queryClient = createAppQueryClient();
  const router = createAppRouter(queryClient);
  watchLostSession(router, queryClient);
  // Creating the router (its route tree and the browser's history, much of its code compiled at first call) and then
  // matching the page and starting its loaders were one task of 25-55 ms on a desktop CPU, four times that on a
  // phone's: two, with a pause between in which a tap can be answered.
  await nextTask();

  let rendered = false;
  const render = () => {
    if (rendered) return;
    rendered = true;
    // A transition lets React render the first page in slices, yielding to the browser between them, instead of one
    // long task (about 750 ms for the overview at a phone's CPU) during which a tap goes unanswered.
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App queryClient={queryClient} router={router} />
        </StrictMode>,
      ),
    );
  };
  // The queue's request starts as soon as the API client's chunk (small, and preloaded) has run; only then does the
  // router import the page's code. Otherwise both are imported at once, and the loader, which makes the request,
  // runs only after the signed-in layout's code has been evaluated too, a long wait on a slow CPU. See
  // first-request.ts.
  const firstMatch = router.matchRoutes(router.latestLocation).at(-1);
  const firstRequest =
    firstMatch?.routeId === ('/_app/authorization-requests/' satisfies keyof FileRoutesById)
      ? import('./wiring/first-request.ts')
          .then(({ startFirstRequest }) => startFirstRequest({ queryClient, session: currentSession }, firstMatch))
          // Only a head start: the route's loader makes the same request.
          .catch(() => undefined)
      : Promise.resolve();
  // Then the first page's loader runs, before anything renders. React renders once that load is done: the finished
  // page in one pass, instead of a loading pass first that delays the page's code and request behind it and is then
  // thrown away. A slow load renders at the router's pending delay, as before.
  setTimeout(render, FIRST_RENDER_LATEST_MS);
  await firstRequest
    .then(() => router.load())
    .catch(console.error)
    .finally(render);
}
void start(container);

// Validation messages are only read once something went wrong: they load next to the first screen, not as part
// of its download (see messages.ts).
void import('../shared/contract/messages.ts');
