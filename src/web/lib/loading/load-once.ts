export interface LoadOnce<T> {
  /** What the load gave, once it has arrived; undefined until then. */
  readonly value: T | undefined;
  /** Starts the load unless it is under way or done, and answers its promise. A failed load starts again next time. */
  load(): Promise<T>;
}

/**
 * Code fetched once for every component that wants it (a chunk of its own), whose value is then at hand
 * synchronously: a component can render with it at once instead of waiting a turn for the promise.
 */
export function loadOnce<T>(importer: () => Promise<T>): LoadOnce<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    get value() {
      return value;
    },
    load() {
      loading ??= importer().then(
        (loaded) => {
          value = loaded;
          return loaded;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
