import { useRouter } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { DEFAULT_SESSION_IDLE_MINUTES } from '../../shared/contract/index.ts';
import { ApiError } from '../api/core/api-error.ts';
import { api, endpoints } from '../api/instance.ts';
import { reportSessionEnded } from '../api/live/session-events.ts';
import { notify } from '../lib/notify.ts';
import { lastPersonActivity, markPersonActivity, watchPersonActivity } from './person-activity.ts';
import { useSession, useSessionDeadlines } from './session-context.tsx';
import { deadlineOf, type StoredSession } from './session-store.ts';
import { signOutNotice } from './sign-out-notice.ts';

const loadDialog = () => import('./session-expiry-dialog.tsx');
// The dialog (a modal with its focus trap and scroll lock) is not needed to paint a page: it loads a minute before
// a warning is due (see PRELOAD_AHEAD_MS), so it is there when the countdown starts even if the network has gone.
const SessionExpiryDialog = lazy(() => loadDialog().then((module) => ({ default: module.SessionExpiryDialog })));
const PRELOAD_AHEAD_MS = 60_000;

/** The person asked to stay signed in (or acted since the last extension): extends the idle deadline. */
const keepSession = () => api.call(endpoints.getSession, { byPerson: true });

/** The session's idle length: as the server last told it, else the service's default. */
function idleMsOf(session: StoredSession): number {
  return (session.idleSeconds ?? DEFAULT_SESSION_IDLE_MINUTES * 60) * 1000;
}

/** The warning shows this long before a deadline (less with a very short idle setting: a third of it). */
const WARNING_MS = 120_000;

export function warningLeadMs(session: StoredSession): number {
  return Math.min(WARNING_MS, idleMsOf(session) / 3);
}

/** "1:05" */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

type Warning = { kind: 'idle' | 'absolute'; remainingMs: number } | null;

function warningFor(session: StoredSession, now: number): Warning {
  const deadline = deadlineOf(session)?.getTime();
  if (deadline === undefined) return null;
  const remainingMs = deadline - now;
  if (remainingMs > warningLeadMs(session)) return null;
  const absolute = session.absoluteExpires ? Date.parse(session.absoluteExpires) : Number.NaN;
  return { kind: absolute <= deadline ? 'absolute' : 'idle', remainingMs };
}

/**
 * Keeps the session in step with the person: checks a stored session with the server at load, extends the idle
 * deadline while the person works (even on pages that make no calls), warns before either deadline with a
 * countdown, and ends the session here when a deadline passes (docs/operations.md "Sessions").
 */
export function SessionKeeper() {
  const { signOut } = useSession();
  const session = useSessionDeadlines();
  const router = useRouter();
  const [now, setNow] = useState(() => Date.now());
  const extendedAt = useRef(Date.now());
  const extending = useRef(false);
  const [dismissedAbsolute, setDismissedAbsolute] = useState(false);

  // At load: a revoked or expired session goes to sign-in (the 401 does that), a live one gets current deadlines.
  useEffect(() => {
    watchPersonActivity();
    keepSession().catch(() => undefined);
    return router.subscribe('onResolved', markPersonActivity);
  }, [router]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const warning = session ? warningFor(session, now) : null;
  const deadline = session ? deadlineOf(session)?.getTime() : undefined;

  const dialogSoon =
    session !== null && deadline !== undefined && deadline - now <= warningLeadMs(session) + PRELOAD_AHEAD_MS;
  useEffect(() => {
    if (dialogSoon) loadDialog().catch(() => undefined);
  }, [dialogSoon]);

  // The person worked since the last extension: tell the server, unless the warning is up (it asks first).
  useEffect(() => {
    if (!session || extending.current || warning) return;
    const idleMs = idleMsOf(session);
    const every = Math.min(60_000, idleMs / 6);
    if (lastPersonActivity() > extendedAt.current && now - extendedAt.current >= every) {
      extending.current = true;
      extendedAt.current = now;
      keepSession()
        .catch(() => undefined)
        .finally(() => {
          extending.current = false;
        });
    }
  }, [now, session, warning]);

  useEffect(() => {
    if (deadline !== undefined && now >= deadline) {
      reportSessionEnded(
        new ApiError({ kind: 'unauthenticated', status: 401, title: 'Session ended', detail: 'The session expired.' }),
      );
    }
  }, [now, deadline]);

  if (!session || !warning || (warning.kind === 'absolute' && dismissedAbsolute)) return null;

  async function staySignedIn() {
    markPersonActivity();
    extendedAt.current = Date.now();
    try {
      await keepSession();
    } catch {
      // A 401 already took the person to sign-in; anything else leaves the warning up to try again.
    }
  }

  async function signOutNow() {
    const confirmed = await signOut();
    notify(signOutNotice(confirmed));
    await router.navigate({ to: '/login' });
  }

  return (
    <Suspense fallback={null}>
      <SessionExpiryDialog
        kind={warning.kind}
        countdown={formatCountdown(warning.remainingMs)}
        onStaySignedIn={() => void staySignedIn()}
        onSignOut={() => void signOutNow()}
        onContinue={() => setDismissedAbsolute(true)}
      />
    </Suspense>
  );
}
