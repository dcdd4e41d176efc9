import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type ListName, readRevision } from '../../db/list-revisions.ts';
import type { Database } from '../../db/schema.ts';

export type ListResponder = <T>(
  request: FastifyRequest,
  reply: FastifyReply,
  list: ListName,
  variant: string,
  load: () => Promise<T[]>,
) => Promise<FastifyReply>;

/**
 * Lists answer an ETag from their table's revision counter, so an unchanged poll is one row read
 * and a 304. The serialized body is kept per list variant until the revision moves, so polling
 * admins share one serialization of a large list instead of one each (memory: one body per variant).
 *
 * The revision is read before the rows: a write in between can only make the tag older than the
 * body, which costs one extra fetch, never a stale answer.
 */
export function createListResponder(db: Kysely<Database>): ListResponder {
  const bodies = new Map<string, { revision: number; json: string }>();

  return async (request, reply, list, variant, load) => {
    const revision = await readRevision(db, list);
    const etag = `"${list}-${variant}-${revision}"`;
    // Cache-Control and Vary come with the endpoint (http/endpoint-route.ts cachingHeaders).
    reply.header('ETag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag)) {
      return reply.code(304).send();
    }
    const key = `${list}-${variant}`;
    let cached = bodies.get(key);
    if (cached?.revision !== revision) {
      cached = { revision, json: JSON.stringify(await load()) };
      bodies.set(key, cached);
    }
    return reply.type('application/json; charset=utf-8').send(cached.json);
  };
}
