import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

/**
 * Ids are positive 32-bit integers: `int` on the real server, `integer` columns in both databases.
 * A larger number is a 400 like any other invalid Id (PostgreSQL would refuse to compare it with a column).
 */
export const ID_MAX = 2_147_483_647;
export const Id = deferred(() => z.int().check(z.minimum(1), z.maximum(ID_MAX)));

/** An Id as it arrives in a path or query string. */
export const IdText = deferred(() =>
  z.pipe(z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'id must be a positive integer')), z.transform(Number)), Id),
);

export const IdParam = deferred(() => z.object({ id: IdText }));
