import type { z } from 'zod/mini';

export interface Store<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

/**
 * A value kept in Web Storage and readable outside React (router guards, the API client).
 * Stored data is re-validated on read, so a hand-edited or outdated entry falls back instead of crashing.
 */
export function createPersistentStore<S extends z.ZodMiniType>(
  storage: () => Storage | undefined,
  key: string,
  schema: S,
  fallback: z.output<S>,
): Store<z.output<S>> {
  const listeners = new Set<() => void>();
  let cached: { raw: string | null; value: z.output<S> } | null = null;

  function read(): z.output<S> {
    let raw: string | null = null;
    try {
      raw = storage()?.getItem(key) ?? null;
    } catch {
      raw = null;
    }
    if (cached && cached.raw === raw) return cached.value;
    let value = fallback;
    if (raw !== null) {
      try {
        const parsed = schema.safeParse(JSON.parse(raw));
        if (parsed.success) value = parsed.data;
      } catch {
        value = fallback;
      }
    }
    cached = { raw, value };
    return value;
  }

  return {
    get: read,
    set(value) {
      try {
        if (value === null || value === undefined) storage()?.removeItem(key);
        else storage()?.setItem(key, JSON.stringify(value));
      } catch {
        // Storage can be full or blocked (private mode); the in-memory value still serves this tab.
      }
      cached = { raw: value === null || value === undefined ? null : JSON.stringify(value), value };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
