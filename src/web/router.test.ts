import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityQueries } from './api/queries/activity-queries.ts';
import { peopleQueries } from './api/queries/people-queries.ts';
import { signInMethodQueries } from './api/queries/sign-in-method-queries.ts';
import { systemQueries } from './api/queries/system-queries.ts';
import { createAppQueryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';
import { sessionStore } from './session/session-store.ts';
import { settingsStore } from './settings/settings-store.ts';
import { signInAs } from './test/session.ts';

afterEach(() => {
  sessionStore.set(null);
  window.history.replaceState(null, '', '/');
});

/** Loads a signed-in page as the app's first load does (main.tsx): which queries its loaders asked for. */
async function loadersOf(path: string, unanswered: readonly unknown[] = []) {
  window.history.replaceState(null, '', path);
  const queryClient = createAppQueryClient();
  // Stands in for the requests: only which queries are asked for before the first render matters here. The
  // `unanswered` one never answers: the load finishes only if nothing waits for it.
  const ensure = vi
    .spyOn(queryClient, 'ensureQueryData')
    .mockImplementation((options) =>
      JSON.stringify(options.queryKey) === JSON.stringify(unanswered)
        ? new Promise(() => undefined)
        : Promise.resolve(),
    );
  const router = createAppRouter(queryClient);
  await router.load();
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe('a page’s loader', () => {
  it('asks for the server’s version answer (demo mode) with every signed-in page and Settings, for the header and the navigation', async () => {
    signInAs(['Read', 'Write']);
    const demoMode = systemQueries.version(settingsStore.get().baseUrl).queryKey;
    expect(await loadersOf('/two-factor')).toContainEqual(demoMode);
    expect(await loadersOf('/people')).toContainEqual(demoMode);
    expect(await loadersOf('/settings')).toContainEqual(demoMode);
  });

  // Without it the page's first render was its loading state, and the methods rendered in one long task after.
  it('asks for the person’s own sign-in methods before Sign-in methods renders, also while only a factor may be added', async () => {
    signInAs(['Read', 'Write']);
    expect(await loadersOf('/sign-in-methods')).toContainEqual(signInMethodQueries.own().queryKey);
    signInAs([], { enrolmentRequired: true });
    expect(await loadersOf('/sign-in-methods')).toContainEqual(signInMethodQueries.own().queryKey);
  });

  it('asks for a person and their newest events together, waiting only for the person', async () => {
    signInAs(['Read', 'Write']);
    const events = activityQueries.slice({ person: 'DEMO\\admin' }).queryKey;
    const asked = await loadersOf(`/people/${encodeURIComponent('DEMO\\admin')}`, events);
    expect(asked).toContainEqual(peopleQueries.detail('DEMO\\admin').queryKey);
    expect(asked).toContainEqual(events);
  });
});
