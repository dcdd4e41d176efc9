import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

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
 */
function canonicalKeys(value: unknown, schema: z.ZodType): unknown {
  if (!(schema instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const known = new Map(Object.keys(schema.shape).map((key) => [key.toLowerCase(), key]));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const canonical = known.get(key.toLowerCase()) ?? key;
    // An exact-case key wins over a differently cased duplicate.
    if (canonical in result && key !== canonical) continue;
    result[canonical] = item;
  }
  return result;
}

export const contractValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = PART_NAMES[httpPart ?? ''] ?? 'input';
  return (data: unknown) => {
    // No body at all reads as an empty object, so the answer names each missing field.
    const input = data === undefined && httpPart === 'body' ? {} : data;
    const result = schema.safeParse(canonicalKeys(input, schema));
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(part, result.error.issues) };
  };
};
