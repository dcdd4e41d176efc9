import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { type ComponentType, lazy, useCallback, useEffect, useState } from 'react';
import {
  type ChunkLoadFailure,
  chunkLoadFailure,
  chunkUrlOf,
  isChunkLoadError,
} from '../../lib/loading/chunk-load-error.ts';

/** How often a part that did not arrive is asked for again while the server cannot be reached. */
export const CHUNK_RETRY_MS = 5000;

interface NoticeProps {
  failure: ChunkLoadFailure;
  onRetry: () => void;
  onClose?: (() => void) | undefined;
}

/** What a person reads when a part of the dashboard did not arrive, and the one thing to do about it. */
export function ChunkLoadNotice({ failure, onRetry, onClose }: NoticeProps) {
  const newVersion = failure === 'new-version';
  return (
    <Stack role="alert" gap="xs" align="flex-start">
      <Text fw={600}>{newVersion ? 'A new version is ready: reload' : 'Cannot reach the server: try again'}</Text>
      <Text size="sm" c="dimmed">
        {newVersion
          ? 'The dashboard was updated since this page opened, and this part of it is now the new version’s.'
          : 'This part of the page did not load. It is tried again every few seconds.'}
      </Text>
      <Group gap="xs">
        <Button size="xs" onClick={newVersion ? () => window.location.reload() : onRetry}>
          {newVersion ? 'Reload' : 'Try again'}
        </Button>
        {onClose && (
          <Button size="xs" variant="default" onClick={onClose}>
            Close
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/**
 * Asks the server why a part did not arrive (at each new `failed`; null: nothing failed), then keeps trying `retry`
 * while it cannot be reached (every few seconds, and when the browser is back online). Null until it knows.
 */
function useChunkFailure(retry: () => void, failed: unknown): ChunkLoadFailure | null {
  const [failure, setFailure] = useState<ChunkLoadFailure | null>(null);
  useEffect(() => {
    let current = true;
    if (failed === null) return;
    void chunkLoadFailure().then((found) => current && setFailure(found));
    return () => {
      current = false;
    };
  }, [failed]);
  useEffect(() => {
    if (failure !== 'unreachable') return;
    const timer = setInterval(retry, CHUNK_RETRY_MS);
    window.addEventListener('online', retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [failure, retry]);
  return failure;
}

interface ClosableProps {
  onClose?: () => void;
}

/** Stands in for a lazily loaded part whose code did not arrive: over the page, which stays as it was. */
function Retrying<P extends object>({ load, props }: { load: () => Promise<ComponentType<P>>; props: P }) {
  const [loaded, setLoaded] = useState<{ component: ComponentType<P> } | null>(null);
  const [failed, setFailed] = useState<number | null>(null);
  const attempt = useCallback(() => {
    load().then(
      (component) => setLoaded({ component }),
      () => setFailed((count) => (count ?? 0) + 1),
    );
  }, [load]);
  // Shown anew, it asks again first: the server may be back since the last failure.
  useEffect(attempt, [attempt]);
  const failure = useChunkFailure(attempt, failed);
  if (loaded) {
    const Component = loaded.component;
    return <Component {...props} />;
  }
  if (failure === null) return null;
  return (
    <Box
      pos="fixed"
      bottom={16}
      left={16}
      right={16}
      p="md"
      maw={480}
      mx="auto"
      bg="var(--mantine-color-body)"
      bd="1px solid var(--mantine-color-default-border)"
      style={{ zIndex: 400, borderRadius: 'var(--mantine-radius-md)', boxShadow: 'var(--mantine-shadow-md)' }}
    >
      <ChunkLoadNotice failure={failure} onRetry={attempt} onClose={(props as ClosableProps).onClose} />
    </Box>
  );
}

/** Whether `value` is the module `pick` takes its component from. */
function isModuleOf<M>(value: unknown, pick: (module: M) => unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  try {
    return typeof pick(value as M) === 'function';
  } catch {
    return false;
  }
}

/**
 * React.lazy for a part loaded when first shown (a dialog, a menu): `load` imports its module, `pick` takes the
 * component from it. If its code does not arrive (the server is gone, or a new version no longer has the file), the
 * page stays and a notice says which, instead of the route's error screen replacing it. The part is asked for again
 * when shown anew, on Try again, and every few seconds while the server is away.
 */
export function lazyChunk<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  return lazy<ComponentType<P>>(() =>
    load().then(
      (module): { default: ComponentType<P> } => ({ default: pick(module) }),
      (error: unknown) => {
        if (!isChunkLoadError(error)) throw error;
        let lastError = error;
        let tries = 0;
        const again = async () => {
          const url = chunkUrlOf(lastError);
          try {
            if (!url) return pick(await load());
            // The failed URL stays failed in this page: the file is asked for under a query of its own. Imported so,
            // the file's exports are the bundler's short names, one of them the module `load` would have given.
            const file = (await import(/* @vite-ignore */ `${url}?retry=${++tries}`)) as Record<string, unknown>;
            const module = [file, ...Object.values(file)].find((value) => isModuleOf(value, pick));
            if (!module) throw new Error(`${url} does not hold the part it was loaded for`);
            return pick(module as M);
          } catch (failed) {
            lastError = failed;
            throw failed;
          }
        };
        return { default: (props: P) => <Retrying load={again} props={props} /> };
      },
    ),
  );
}

/** A route whose code did not arrive: the notice in the page's place, the shell around it kept. */
export function RouteChunkNotice({ onRetry, error }: { onRetry: () => void; error: unknown }) {
  const failure = useChunkFailure(onRetry, error);
  if (failure === null) return null;
  return (
    <Box py="xl" px="md" maw={560} mx="auto">
      <ChunkLoadNotice failure={failure} onRetry={onRetry} />
    </Box>
  );
}
