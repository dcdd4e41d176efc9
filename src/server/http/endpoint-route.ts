import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { z } from 'zod/mini';
import { API_PREFIX, type Endpoint, type ResponseBodyOf } from '../../shared/contract/index.ts';
import { TOKEN_HEADER_NAME } from './access.ts';
import { servedAtRoot } from './api-path.ts';

type Parsed<E, K extends 'body' | 'query' | 'params'> =
  E extends Record<K, infer S extends z.core.$ZodType> ? z.output<S> : undefined;

export interface EndpointInput<E extends Endpoint> {
  body: Parsed<E, 'body'>;
  query: Parsed<E, 'query'>;
  params: Parsed<E, 'params'>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * What a handler gives back: the endpoint's response (typed by the contract; nothing for endpoints without one, which
 * answer with the catalogue's status and no body), or the reply itself when it answered through it (a list's cached
 * serialisation, a 304).
 */
export type EndpointAnswer<E extends Endpoint> =
  // biome-ignore lint/suspicious/noConfusingVoidType: a body-less endpoint's handler returns its work's Promise<void>.
  ([ResponseBodyOf<E>] extends [undefined] ? void : ResponseBodyOf<E>) | FastifyReply;

/**
 * The caching headers of an endpoint's answers, refusals included. What a caller signed in for is theirs alone (an
 * account, its history, a push user, a request): no cache may keep it, on disk or on the way. A list with an ETag may
 * instead stay in the caller's own browser, revalidated at each use (its 304 is what makes polling cheap) and kept
 * apart per credentials. An anonymous endpoint is kept out of caches only when the catalogue says so.
 */
export function cachingHeaders(endpoint: Endpoint): Readonly<Record<string, string>> | null {
  if (endpoint.access.kind === 'anonymous') return endpoint.noStore ? { 'cache-control': 'no-store' } : null;
  return endpoint.conditional
    ? { 'cache-control': 'private, no-cache', vary: `authorization, ${TOKEN_HEADER_NAME}` }
    : { 'cache-control': 'no-store' };
}

/**
 * Serves one catalogue entry: its method, path and aliases, its schemas (validated by the contract
 * validator), its success status, and its access and version rules (enforced by the hooks reading
 * `config.endpoint`). A route only supplies what the endpoint does.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: EndpointInput<E>) => Promise<EndpointAnswer<E>> | EndpointAnswer<E>,
  extraConfig: Record<string, unknown> = {},
): void {
  const schema: Record<string, z.core.$ZodType> = {};
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.params) schema.params = endpoint.params;
  // Under /api, and the Consumer interface at the site root too, where the real platform's clients call it.
  const paths = [endpoint.path, ...endpoint.aliases];
  const urls = [...paths.map((path) => `${API_PREFIX}${path}`), ...paths.filter(servedAtRoot)];
  const caching = cachingHeaders(endpoint);
  const status = endpoint.status;
  // The route's own hook runs before the access guards, so a refusal carries the headers too.
  const onRequest: onRequestHookHandler[] = caching
    ? [
        (_request, reply, done) => {
          reply.headers(caching);
          done();
        },
      ]
    : [];
  for (const url of urls) {
    app.route({
      method: endpoint.method,
      url,
      schema,
      config: { ...extraConfig, endpoint },
      onRequest,
      handler: (request, reply) => {
        // The catalogue's success status; a refusal thrown by the handler sets its own in the problem handler.
        if (status) reply.code(status);
        return handler({
          body: request.body as Parsed<E, 'body'>,
          query: request.query as Parsed<E, 'query'>,
          params: request.params as Parsed<E, 'params'>,
          request,
          reply,
        });
      },
    });
  }
}
