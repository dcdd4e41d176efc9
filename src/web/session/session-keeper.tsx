import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { api, reportSessionEnded } from '../api/instance.ts';
import { notify } from '../lib/notify.ts';
import { lastPersonActivity, markPersonActivity, watchPersonActivity } from './person-activity.ts';
import { useSession } from './session-context.tsx';
import { deadlineOf, type StoredSession } from './session-store.ts';

/** The warning shows this long before a deadline (less with a very short idle setting: a third of it). */
const WARNING_MS = 120_000;

export function warningLeadMs(session: StoredSession): number {
  return Math.min(WARNING_MS, ((session.idleSeconds ?? 30 * 60) * 1000) / 3);
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
 * countdown, and ends the session here when a deadline passes (README "Sessions").
 */
export function SessionKeeper() {
  const { session, signOut } = useSession();
  const router = useRouter();
  const [now, setNow] = useState(() => Date.now());
  const extendedAt = useRef(Date.now());
  const extending = useRef(false);
  const [dismissedAbsolute, setDismissedAbsolute] = useState(false);

  // At load: a revoked or expired session goes to sign-in (the 401 does that), a live one gets current deadlines.
  useEffect(() => {
    watchPersonActivity();
    api.keepSession().catch(() => undefined);
    return router.subscribe('onResolved', markPersonActivity);
  }, [router]);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const warning = session ? warningFor(session, now) : null;

  // The person worked since the last extension: tell the server, unless the warning is up (it asks first).
  useEffect(() => {
    if (!session || extending.current || warning) return;
    const idleMs = (session.idleSeconds ?? 30 * 60) * 1000;
    const every = Math.min(60_000, idleMs / 6);
    if (lastPersonActivity() > extendedAt.current && now - extendedAt.current >= every) {
      extending.current = true;
      extendedAt.current = now;
      api
        .keepSession()
        .catch(() => undefined)
        .finally(() => {
          extending.current = false;
        });
    }
  }, [now, session, warning]);

  useEffect(() => {
    if (!session) return;
    const deadline = deadlineOf(session)?.getTime();
    if (deadline !== undefined && now >= deadline) {
      reportSessionEnded(
        new ApiError({ kind: 'unauthenticated', status: 401, title: 'Session ended', detail: 'The session expired.' }),
      );
    }
  }, [now, session]);

  if (!session || !warning || (warning.kind === 'absolute' && dismissedAbsolute)) return null;

  async function staySignedIn() {
    markPersonActivity();
    extendedAt.current = Date.now();
    try {
      await api.keepSession();
    } catch {
      // A 401 already took the person to sign-in; anything else leaves the warning up to try again.
    }
  }

  async function signOutNow() {
    const confirmed = await signOut();
    notify(signOutNotice(confirmed));
    await router.navigate({ to: '/login' });
  }

  const countdown = formatCountdown(warning.remainingMs);
  return (
    <Modal
      opened
      onClose={() => (warning.kind === 'absolute' ? setDismissedAbsolute(true) : void staySignedIn())}
      title={<Text fw={650}>Your session is about to end</Text>}
      size="md"
      data-testid="session-expiry-dialog"
    >
      <Stack gap="md">
        {warning.kind === 'idle' ? (
          <Text size="sm">
            Nothing was done here for a while. You will be signed out in{' '}
            <Text span fw={700} data-testid="session-countdown">
              {countdown}
            </Text>
            .
          </Text>
        ) : (
          <Text size="sm">
            Your session reaches its maximum length and ends in{' '}
            <Text span fw={700} data-testid="session-countdown">
              {countdown}
            </Text>
            . It cannot be extended: finish what you are typing, then sign in again.
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => void signOutNow()}>
            Sign out
          </Button>
          {warning.kind === 'idle' ? (
            <Button onClick={() => void staySignedIn()} data-autofocus>
              Stay signed in
            </Button>
          ) : (
            <Button onClick={() => setDismissedAbsolute(true)} data-autofocus>
              Continue
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** What sign-out tells: ended on the server only when the server said so. */
export function signOutNotice(confirmed: boolean) {
  return confirmed
    ? { id: 'signed-out', title: 'Signed out', message: 'Your session was ended on the server.' }
    : {
        id: 'signed-out',
        color: 'yellow',
        title: 'Signed out here only',
        message:
          'The server could not be reached to end the session. It was forgotten in this browser and ends on the server at its deadline.',
      };
}
