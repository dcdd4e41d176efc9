import { z } from 'zod/mini';
import {
  type ApiVersion,
  availability,
  type BodyOf,
  type Endpoint,
  endpointPath,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  unavailableReason,
} from '../../../shared/contract/index.ts';
import { ApiError, errorFromResponse } from './api-error.ts';
import { requestHeaders } from './request-headers.ts';

/** A step-up proof refused (401): the session is still there, only the proof was wrong. */
const PROOF_REFUSED: ReadonlySet<string> = new Set([
  'passkey-refused',
  'recovery-code-invalid',
  'device-code-invalid',
  'device-code-expired',
]);

export interface ApiClientConfig {
  /** `{base_url}`, e.g. `/api` or `https://tachyon.example.com/Consumer/api`. */
  baseUrl: () => string;
  apiVersion: () => ApiVersion;
  token: () => string | null;
  /** The device app's credential (`Authorization: Device …`), for the endpoints a device calls; none elsewhere. */
  deviceToken?: () => string | null;
  consumerName: () => string;
  fetch?: typeof globalThis.fetch;
  /** How long to wait for a server's answer to start before giving up (default 20 s). */
  timeoutMs?: number;
  /** True when a call now is background traffic (the person did nothing lately): it must not extend the session. */
  background?: () => boolean;
  /** Called with every answer to a call that needed a session (its headers carry the session's deadlines). */
  onSessionAnswer?: (response: Response) => void;
  /** Called when a call that needed credentials is answered 401: the session (or the device's credential) is gone. */
  onUnauthorized?: (error: ApiError, endpoint: Endpoint) => void;
  /** Asks the person to prove a second factor again (step-up); true when they did and the call may go again. */
  onStepUpRequired?: () => Promise<boolean>;
}

/** A field the endpoint requires, may take (all its keys optional), or must not get. */
type Field<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** A call's options, typed by the endpoint's contract: its body, path parameters and query. */
export type CallOptions<E extends Endpoint> = {
  signal?: AbortSignal | undefined;
  /** Counts as the person's activity whatever `background` says (for example "Stay signed in"). */
  byPerson?: boolean;
} & Field<'body', BodyOf<E>> &
  Field<'params', ParamsOf<E>> &
  Field<'query', QueryOf<E>>;

/** The options are optional only when the endpoint requires none of them. */
export type CallArguments<E extends Endpoint> =
  Record<string, never> extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>];

/** What `call` reads of the options, whatever the endpoint. */
interface AnyCallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  byPerson?: boolean;
}

export interface ApiClient {
  call<E extends Endpoint>(endpoint: E, ...args: CallArguments<E>): Promise<ResponseOf<E>>;
  apiVersion(): ApiVersion;
  baseUrl(): string;
}

const ETAG_CACHE_LIMIT = 50;
export const DEFAULT_TIMEOUT_MS = 20_000;

function queryString(query: Record<string, string | number | undefined>): string {
  const fields = Object.entries(query).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, String(value)] as [string, string]],
  );
  return new URLSearchParams(fields).toString();
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

export function createApiClient(config: ApiClientConfig): ApiClient {
  const fetchImpl = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // Lists answer with an ETag; replaying it makes polling an unchanged queue a cheap 304.
  const etags = new Map<string, { etag: string; data: unknown }>();

  async function call<E extends Endpoint>(endpoint: E, ...args: CallArguments<E>): Promise<ResponseOf<E>> {
    // The public signature checks each endpoint's options; inside, any endpoint's will do.
    const options = (args[0] ?? {}) as AnyCallOptions;
    const version = config.apiVersion();
    if (!availability(endpoint, version).available) {
      throw new ApiError({
        kind: 'unavailable-in-version',
        status: 0,
        title: 'Not available in this API version',
        detail: `${endpoint.summary}: ${unavailableReason(endpoint, version)}.`,
      });
    }

    let body: string | undefined;
    if (options.body !== undefined) {
      const checked = endpoint.body
        ? endpoint.body.safeParse(options.body)
        : { success: true as const, data: options.body };
      if (!checked.success) {
        throw new ApiError({
          kind: 'validation',
          status: 0,
          title: 'Invalid input',
          detail: z.prettifyError(checked.error),
          errors: checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
        });
      }
      body = JSON.stringify(checked.data);
    }

    const search = options.query ? `?${queryString(options.query)}` : '';
    const url = joinUrl(config.baseUrl(), endpointPath(endpoint, options.params)) + search;
    const token = config.token();
    const deviceToken = config.deviceToken?.() ?? null;
    const access = endpoint.access.kind;
    const credential =
      token && access !== 'anonymous' && access !== 'device'
        ? { session: token }
        : deviceToken && (access === 'device' || access === 'session-or-device')
          ? { device: deviceToken }
          : null;
    const headers = new Headers(
      requestHeaders({
        accept: 'application/json, application/problem+json',
        version,
        consumer: config.consumerName(),
        credential,
        background: access !== 'anonymous' && !options.byPerson && (config.background?.() ?? false),
      }),
    );
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const cacheKey = `${version} ${token ?? ''} ${url}`;
    const cached = endpoint.method === 'GET' ? etags.get(cacheKey) : undefined;
    if (cached) headers.set('If-None-Match', cached.etag);

    // A server that accepts the connection but never answers must not leave a spinner forever. The timer only
    // covers the wait for the answer to start, so long bodies and streams are not cut off.
    const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) forwardAbort();
    options.signal?.addEventListener('abort', forwardAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);

    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: endpoint.method,
        headers,
        body,
        signal: controller.signal,
        cache: 'no-store',
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (timedOut) {
        throw new ApiError({
          kind: 'network',
          status: 0,
          title: 'The server did not answer in time',
          detail: `No answer from ${config.baseUrl()} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} seconds` : `${timeoutMs} ms`}. It may be busy or stopped; try again.`,
          cause: error,
        });
      }
      throw new ApiError({
        kind: 'network',
        status: 0,
        title: 'Cannot reach the server',
        detail: `No answer from ${config.baseUrl()}. Check the connection or the server address in Settings.`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }

    if (endpoint.access.kind !== 'anonymous' && response.status !== 401) config.onSessionAnswer?.(response);
    if (response.status === 304 && cached) return cached.data as ResponseOf<E>;
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (response.status === 401 && endpoint.access.kind !== 'anonymous' && !PROOF_REFUSED.has(error.kind)) {
        config.onUnauthorized?.(error, endpoint);
      }
      // A step-up action asked for a fresh second factor: once the person proves one, the same call goes again, so
      // what they typed for it is not lost.
      if (error.kind === 'step-up-required' && config.onStepUpRequired && (await config.onStepUpRequired())) {
        return call(endpoint, ...args);
      }
      throw error;
    }
    // A download (a CSV export) is its body, whole, as the file to save.
    if (endpoint.download) return (await response.blob()) as ResponseOf<E>;
    if (!endpoint.response) return undefined as ResponseOf<E>;

    const json: unknown = await response.json().catch(() => undefined);
    const parsed = endpoint.response.safeParse(json);
    if (!parsed.success) {
      throw new ApiError({
        kind: 'invalid-response',
        status: response.status,
        title: 'Unexpected answer from the server',
        detail: `The answer to "${endpoint.summary}" does not match the interface: ${z.prettifyError(parsed.error)}`,
      });
    }
    const etag = response.headers.get('ETag');
    if (endpoint.method === 'GET' && etag) {
      if (etags.size >= ETAG_CACHE_LIMIT) etags.delete(etags.keys().next().value as string);
      etags.set(cacheKey, { etag, data: parsed.data });
    }
    return parsed.data as ResponseOf<E>;
  }

  return { call, apiVersion: config.apiVersion, baseUrl: config.baseUrl };
}
