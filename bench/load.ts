import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  p50Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'PUT' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body for each request (instead of `body`). */
  bodyPerRequest?: () => string;
  connections?: number;
  seconds?: number;
}

/** A bounded autocannon run on loopback. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.bodyPerRequest
      ? { requests: [{ setupRequest: (request) => ({ ...request, body: options.bodyPerRequest?.() }) }] }
      : {}),
    connections: options.connections ?? 50,
    duration: options.seconds ?? 5,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
