import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../shared/contract/index.ts';
import { createApiClient } from './client.ts';

/** A server that accepts the request and never answers, but honours abort like a real fetch. */
function hangingFetch(): typeof fetch {
  return (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
}

function setup(timeoutMs: number) {
  return createApiClient({
    baseUrl: () => '/api',
    apiVersion: () => '3.3',
    token: () => 'secret',
    consumerName: () => 'Test',
    fetch: hangingFetch(),
    timeoutMs,
  });
}

describe('API client time-out', () => {
  it('gives up on a server that never answers with a network error that says so', async () => {
    const error = await setup(30)
      .call(endpoints.listPushMessageUsers)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'network', title: 'The server did not answer in time' });
    expect((error as Error & { detail?: string }).detail).toContain('within 30 ms');
  });

  it('an abort by the caller stays an abort, not a time-out', async () => {
    const controller = new AbortController();
    const pending = setup(10_000).call(endpoints.listPushMessageUsers, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
