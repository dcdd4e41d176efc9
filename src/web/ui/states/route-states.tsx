import { Button, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { isChunkLoadError } from '../../lib/loading/chunk-load-error.ts';
import { RouteChunkNotice } from '../overlays/lazy-chunk.tsx';
import type { ErrorStateProps } from './error-state.tsx';

/**
 * Stands in when the real screen cannot load: a route usually fails because the network did, and then its error
 * screen's code may not arrive either.
 */
function PlainError({ onRetry }: ErrorStateProps) {
  return (
    <Stack role="alert" align="center" gap="sm" py="xl">
      <Text fw={600}>This page could not be loaded</Text>
      <Text size="sm" c="dimmed">
        Check the connection, then try again.
      </Text>
      <Button variant="default" onClick={() => (onRetry ? onRetry() : window.location.reload())}>
        Try again
      </Button>
    </Stack>
  );
}

// The router's error and not-found screens are seldom seen: they load when one is shown, not with every first page.
const ErrorState = lazy(() =>
  import('./error-state.tsx').then(
    (module) => ({ default: module.ErrorState }),
    () => ({ default: PlainError }),
  ),
);
const NotFoundState = lazy(() =>
  import('./not-found-state.tsx').then(
    (module) => ({ default: module.NotFoundState }),
    () => ({ default: () => <PlainError error={null} /> }),
  ),
);

export function RouteErrorState(props: ErrorStateProps) {
  // A page whose code did not arrive says why (a new version, or the server away) and how to go on.
  if (isChunkLoadError(props.error)) {
    return <RouteChunkNotice error={props.error} onRetry={props.onRetry ?? (() => window.location.reload())} />;
  }
  return (
    <Suspense fallback={null}>
      <ErrorState {...props} />
    </Suspense>
  );
}

export function RouteNotFoundState() {
  return (
    <Suspense fallback={null}>
      <NotFoundState />
    </Suspense>
  );
}
