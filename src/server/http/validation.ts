import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod/mini';
// The answers name problems in English, as they did with classic zod.
import '../../shared/contract/messages.ts';

/** A request part that failed its contract schema, with one entry per problem found. */
export class RequestValidationError extends Error {
  readonly errors: Array<{ path: string; message: string }>;

  constructor(part: string, issues: z.core.$ZodIssue[]) {
    const errors = issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.join('.') : part,
      message: issue.message,
    }));
    super(`The request ${part} is not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    this.errors = errors;
  }
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/**
 * SPEC §3: body property names and query parameter names match case-insensitively
 * (`userName` binds to `UserName`, `GetAll` to `getall`), as the real server's model binding does.
 * Made once per schema: the lower-cased names of an object schema's properties, or null for other schemas.
 */
function keyCanonicalizer(schema: z.core.$ZodType): ((value: unknown) => unknown) | null {
  // The core class: true for classic and mini objects alike (the contract is written with zod/mini).
  if (!(schema instanceof z.core.$ZodObject)) return null;
  const known = new Map(Object.keys(schema._zod.def.shape).map((key) => [key.toLowerCase(), key]));
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const canonical = known.get(key.toLowerCase()) ?? key;
      // An exact-case key wins over a differently cased duplicate.
      if (canonical in result && key !== canonical) continue;
      result[canonical] = item;
    }
    return result;
  };
}

export const contractValidatorCompiler: FastifySchemaCompiler<z.core.$ZodType> = ({ schema, httpPart }) => {
  const part = PART_NAMES[httpPart ?? ''] ?? 'input';
  // Path parameters are named by the route itself: only bodies and query strings arrive in the caller's casing.
  const canonicalKeys = httpPart === 'body' || httpPart === 'querystring' ? keyCanonicalizer(schema) : null;
  return (data: unknown) => {
    // No body at all reads as an empty object, so the answer names each missing field.
    const input = data === undefined && httpPart === 'body' ? {} : data;
    const result = z.safeParse(schema, canonicalKeys ? canonicalKeys(input) : input);
    if (!result.success) return { error: new RequestValidationError(part, result.error.issues) };
    const nul = pathOfNul(result.data);
    if (nul !== null) {
      return {
        error: new RequestValidationError(part, [
          { code: 'custom', path: nul, message: 'must not contain the NUL character (U+0000)', input: undefined },
        ]),
      };
    }
    return { value: result.data };
  };
};

/**
 * The path of the first string holding U+0000 in validated input, or null. PostgreSQL text cannot store
 * (or even compare with) it, and no field of this interface has a use for it: both databases refuse it alike.
 * Validated input is a few levels deep at most; the walk is iterative all the same.
 */
function pathOfNul(value: unknown): PropertyKey[] | null {
  const pending: Array<[unknown, PropertyKey[]]> = [[value, []]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) pending.push([child, [...path, key]]);
    }
  }
  return null;
}
