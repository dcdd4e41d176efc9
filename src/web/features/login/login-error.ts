import { useEffect, useState } from 'react';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError, type ErrorText } from '../../api/core/describe-error.ts';

export function loginErrorText(error: unknown): ErrorText {
  if (isApiError(error) && (error.kind === 'invalid-credentials' || error.kind === 'unauthenticated')) {
    return { title: 'Sign-in failed', message: 'The user name or password is not right. Check both and try again.' };
  }
  return describeError(error);
}

/** The sign-in form's fields in its words. */
export const LOGIN_WORDS = { labels: { UserName: 'User name', Password: 'Password' } } as const;

/**
 * Seconds left before a throttled sign-in may try again (0 when it may now): counted down from the answer's
 * Retry-After, so the button stays disabled exactly as long as the service would refuse.
 */
export function useRetryCountdown(error: unknown): number {
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (isApiError(error) && error.kind === 'too-many-requests') {
      setUntil(Date.now() + (error.retryAfterSeconds ?? 30) * 1000);
      setNow(Date.now());
    } else setUntil(null);
  }, [error]);
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}
