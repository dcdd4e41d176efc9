import type { z } from 'zod/mini';
import type { Endpoint } from './endpoints.ts';

type Schema<E, K extends 'body' | 'query' | 'params' | 'response'> =
  E extends Record<K, infer S extends z.ZodMiniType> ? S : never;

/** What a handler answers for an endpoint (the service), as the response schema accepts it. */
export type ResponseBodyOf<E extends Endpoint> = [Schema<E, 'response'>] extends [never]
  ? undefined
  : z.input<Schema<E, 'response'>>;

/** What a caller gets back from an endpoint (the dashboard), as the response schema parses it. */
export type ResponseOf<E extends Endpoint> = E extends { download: object }
  ? Blob
  : [Schema<E, 'response'>] extends [never]
    ? undefined
    : z.output<Schema<E, 'response'>>;

/** The body a caller sends; `undefined` for endpoints without one. */
export type BodyOf<E extends Endpoint> = [Schema<E, 'body'>] extends [never] ? undefined : z.input<Schema<E, 'body'>>;

/**
 * Path parameters and query fields as a caller writes them: the schema's field names, each a string or a number
 * (they travel as text and the schema parses them).
 */
export type ParamsOf<E extends Endpoint> = [Schema<E, 'params'>] extends [never]
  ? undefined
  : WireFields<z.output<Schema<E, 'params'>>>;
export type QueryOf<E extends Endpoint> = [Schema<E, 'query'>] extends [never]
  ? undefined
  : WireFields<z.output<Schema<E, 'query'>>>;

type WireFields<T> = { [K in keyof T]: undefined extends T[K] ? string | number | undefined : string | number };
