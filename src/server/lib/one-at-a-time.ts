/**
 * Work queued per key: each piece for a key starts once the one before it has settled (in this process), while
 * different keys run side by side. A piece that fails does not stop the ones behind it.
 */
export class OneAtATime {
  /** The last piece queued for each key; gone once the queue for that key has drained. */
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => undefined);
    this.tails.set(key, settled);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    }
  }
}
