/**
 * How long a live stream's body took to end after `since` (performance.now()). A body still open after `limitMs` is
 * cancelled, which makes the read reject: the test fails rather than waiting on.
 */
export async function streamEnds(body: ReadableStream<Uint8Array>, since: number, limitMs = 6_000): Promise<number> {
  const reader = body.getReader();
  const timeout = setTimeout(() => void reader.cancel(new Error('still open')), limitMs);
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return performance.now() - since;
    }
  } finally {
    clearTimeout(timeout);
  }
}
