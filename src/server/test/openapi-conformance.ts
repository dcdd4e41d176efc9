import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { openApiDocument, openApiPath } from '../../shared/contract/openapi.ts';

type Json = Record<string, unknown>;

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM interop.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

const DOCUMENT_ID = 'https://tachyon-consumer.dev/openapi.json';
const document = openApiDocument({ version: 'test', demo: true }) as Json & {
  paths: Record<string, Record<string, Json>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, DOCUMENT_ID);

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();
function validatorAt(...parts: string[]): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer(...parts)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`no schema at ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

export interface Answer {
  method: string;
  /** The catalogue path the route serves (`/Consumer/PushMessageUsers/:id`), or null for routes outside it. */
  catalogPath: string | null;
  status: number;
  contentType: string | undefined;
  body: string;
}

/** Why an answer does not match the OpenAPI document, or null when it does. */
export function mismatch(answer: Answer): string | null {
  if (answer.method === 'HEAD') return null;
  const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase();
  const where = `${answer.method} ${answer.catalogPath ?? '(outside the catalogue)'} → ${answer.status}`;
  if (answer.catalogPath === null) {
    // Pages, static files, routes tests add: only problems are the document's business.
    if (mediaType !== 'application/problem+json') return null;
    return check(validatorAt('components', 'schemas', 'Problem'), answer.body, where);
  }
  const path = openApiPath(answer.catalogPath);
  const method = answer.method.toLowerCase();
  const operation = document.paths[path]?.[method] as { responses: Record<string, Json> } | undefined;
  if (!operation) return `${where}: the document has no operation ${method} ${path}`;
  const key = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
    (candidate) => operation.responses[candidate],
  );
  if (!key) return `${where}: status not documented (add it to the catalogue entry: status, conditional)`;
  const content = operation.responses[key]?.content as Record<string, Json> | undefined;
  if (!content) return answer.body === '' ? null : `${where}: documented without a body, answered one`;
  if (!mediaType || !content[mediaType]) return `${where}: content type ${mediaType} not documented`;
  if (!mediaType.endsWith('json')) return null;
  return check(
    validatorAt('paths', path, method, 'responses', key, 'content', mediaType, 'schema'),
    answer.body,
    where,
  );
}

function check(validate: ValidateFunction, body: string, where: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `${where}: body is not JSON`;
  }
  if (validate(value)) return null;
  return `${where}: ${ajv.errorsText(validate.errors)} in ${body.slice(0, 300)}`;
}

/**
 * The harness's hook: every answer a test receives is checked against the OpenAPI document, and each
 * mismatch is kept for the test's close() to fail on.
 */
export function conformanceHook(failures: string[]): onSendHookHandler {
  return (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const endpoint = request.routeOptions.config?.endpoint;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (body !== null || payload === null || payload === undefined) {
      const problem = mismatch({
        method: request.method,
        catalogPath: endpoint ? catalogPathOf(request.routeOptions.url ?? '', endpoint) : null,
        status: reply.statusCode,
        contentType: reply.getHeader('content-type')?.toString(),
        body: body ?? '',
      });
      if (problem) failures.push(problem);
    }
    done(null, payload);
  };
}

/** The catalogue path a route URL serves: its own path or an alias, under /api or at the root. */
function catalogPathOf(routeUrl: string, endpoint: { path: string; aliases: readonly string[] }): string {
  const lower = routeUrl.toLowerCase();
  return [endpoint.path, ...endpoint.aliases].find((path) => lower.endsWith(path.toLowerCase())) ?? endpoint.path;
}
