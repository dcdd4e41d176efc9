import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { readRevision } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * Lists answer an ETag from their table's revision counter, so an unchanged poll is one
 * row read and a 304 instead of the whole list. The revision is read before the rows:
 * a write in between can only make the tag older than the body, which costs one extra fetch.
 */
export async function respondWithList<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Kysely<Database>,
  list: 'authorization_requests' | 'push_message_users',
  variant: string,
  load: () => Promise<T[]>,
): Promise<T[] | FastifyReply> {
  const revision = await readRevision(db, list);
  const etag = `"${list}-${variant}-${revision}"`;
  reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
    return reply.code(304).send();
  }
  return load();
}
