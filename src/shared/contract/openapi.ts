import { z } from 'zod/mini';
import * as accountSchemas from './accounts.ts';
import * as activitySchemas from './activity.ts';
import { API_PREFIX } from './api-prefix.ts';
import * as deviceSchemas from './devices.ts';
import { availability, type Endpoint, endpoints } from './endpoints.ts';
import * as historySchemas from './history.ts';
import * as peopleSchemas from './people.ts';
import { PROBLEM_KINDS, Problem } from './problems.ts';
import * as requestContextSchemas from './request-context.ts';
import * as resourceSchemas from './resources.ts';
import { API_VERSION_HEADER, DEFAULT_API_VERSION, SUPPORTED_VERSIONS } from './versions.ts';

type JsonSchema = Record<string, unknown>;

/** The contract's exported schemas by identity, so the document names each as its module does. */
const EXPORT_NAME = new Map<unknown, string>(
  Object.entries({
    ...accountSchemas,
    ...activitySchemas,
    ...deviceSchemas,
    ...historySchemas,
    ...peopleSchemas,
    ...requestContextSchemas,
    ...resourceSchemas,
  }).map(([name, value]) => [value, name]),
);

/**
 * Schemas named in components/schemas: every endpoint's body (as a request carries it) and response (as an answer
 * carries it), under its export name, and the problem. A new endpoint's schemas are named without a list to edit.
 */
const NAMED = new Map<string, readonly [z.ZodMiniType, 'input' | 'output']>();
for (const endpoint of Object.values(endpoints) as Endpoint[]) {
  for (const [schema, io] of [
    [endpoint.body, 'input'],
    [endpoint.response, 'output'],
  ] as const) {
    const name = schema && EXPORT_NAME.get(schema);
    if (schema && name) NAMED.set(name, [schema, io]);
  }
}
NAMED.set('Problem', [Problem, 'output']);
const NAME_OF = new Map<unknown, string>([...NAMED].map(([name, [schema]]) => [schema, name]));

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) from a contract schema: requests as they arrive, answers as sent. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** A named schema by reference, any other inline. */
function schemaRef(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const name = NAME_OF.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : jsonSchema(schema, io);
}

const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
const problemResponse = (description: string) => ({ description, content: PROBLEM_CONTENT });

/** An OpenAPI security requirement: scheme names, each with its (here always empty) scope list. */
type SecurityRequirement = Record<string, string[]>;
const SECURED: SecurityRequirement[] = [{ bearerToken: [] }, { tachyonToken: [] }, { basicCredentials: [] }];
const DEVICE_SECURED: SecurityRequirement[] = [{ deviceToken: [] }];

/** Which credentials an endpoint takes, as OpenAPI security requirements (any one of them). */
function securityOf(endpoint: Endpoint): SecurityRequirement[] {
  switch (endpoint.access.kind) {
    case 'anonymous':
      return [];
    case 'device':
      return DEVICE_SECURED;
    case 'session-or-device':
      return [...SECURED, ...DEVICE_SECURED];
    // The empty requirement: no credentials at all, when the body holds an enrolment code.
    case 'session-or-enrollment-code':
      return [...SECURED, {}];
    default:
      return SECURED;
  }
}

/** The query or path parameters of an object schema, each with its own schema. */
function parameters(schema: z.ZodMiniType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(where === 'query' ? { description: 'Parameter names match case-insensitively.' } : {}),
    schema: property,
  }));
}

function accessText(endpoint: Endpoint): string {
  const { access } = endpoint;
  switch (access.kind) {
    case 'anonymous':
      return 'No sign-in needed.';
    case 'session':
      return 'Any signed-in caller.';
    case 'device':
      return 'An enrolled device, with Authorization: Device <DeviceToken>.';
    case 'session-or-device':
      return 'Any signed-in caller, or an enrolled device (Authorization: Device <DeviceToken>).';
    case 'session-or-enrollment-code':
      return 'Any signed-in caller, or, with no credentials, a body holding an unused EnrollmentCode.';
    case 'permission':
      return access.containment
        ? `Needs '${access.permission}' permission on '${access.entity}', or 'Contain' on 'Accounts' for a person who holds no Accounts permission.`
        : `Needs '${access.permission}' permission on '${access.entity}'.`;
  }
}

function tagOf(endpoint: Endpoint): string {
  if (endpoint.demoOnly) return 'Demo';
  if (endpoint.seedNumber !== null) return 'Consumer';
  if (endpoint.path.startsWith('/Device') || endpoint.path.startsWith('/Instructions')) return 'Devices';
  return endpoint.path.startsWith('/Admin/') ? 'Accounts' : 'Extensions';
}

function operation(name: string, endpoint: Endpoint) {
  const versions = availability(endpoint, SUPPORTED_VERSIONS[0]).versions;
  const status = endpoint.status ?? 200;
  const success: Record<string, unknown> = {
    description: status === 204 ? 'Done; no content.' : 'Success.',
  };
  if (endpoint.response) success.content = { 'application/json': { schema: schemaRef(endpoint.response, 'output') } };
  else if (endpoint.eventStream) {
    success.content = { 'text/event-stream': { schema: { type: 'string' } } };
    success.description = endpoint.eventStream;
  } else if (endpoint.download) {
    success.content = {
      [endpoint.download.mediaType]: { schema: { type: 'string', contentMediaType: endpoint.download.mediaType } },
    };
    success.description = endpoint.download.description;
  }
  const responses: Record<string, unknown> = { [status]: success };
  if (endpoint.conditional)
    responses['304'] = { description: 'Not modified: the ETag sent in If-None-Match is current.' };
  if (endpoint.access.kind !== 'anonymous') {
    responses['401'] = problemResponse(
      endpoint.access.kind === 'device'
        ? 'unauthenticated (no or unknown device credential) or device-ended (removed, Deleted, or its person disabled).'
        : 'unauthenticated (no or ended session) or invalid-credentials (Basic).',
    );
    if (endpoint.access.kind === 'permission')
      responses['403'] = problemResponse('forbidden: the permission is missing.');
  }
  responses['4XX'] = problemResponse('A problem (RFC 9457) whose ErrorCode says which; see the Problem schema.');
  responses['5XX'] = problemResponse('internal, or service-unavailable.');

  const description = [
    endpoint.seedNumber === null ? 'Extension of this product.' : `Seed endpoint #${endpoint.seedNumber}.`,
    accessText(endpoint),
    `API versions: ${versions.join(', ')}.`,
    endpoint.obsolete
      ? `Obsolete from API ${endpoint.obsolete.since} (answers carry Deprecation and a Link to ${endpoint.obsolete.successor}).`
      : '',
    endpoint.aliases.length > 0 ? `Also served at ${endpoint.aliases.join(', ')}.` : '',
    endpoint.demoOnly ? 'Only while demo mode is on (404 otherwise).' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return {
    operationId: name,
    summary: endpoint.summary,
    description,
    tags: [tagOf(endpoint)],
    ...(endpoint.obsolete ? { deprecated: true } : {}),
    'x-api-versions': versions,
    'x-access': endpoint.access,
    ...(endpoint.stepUp ? { 'x-step-up': endpoint.stepUp } : {}),
    parameters: [
      { $ref: '#/components/parameters/ApiVersion' },
      ...parameters(endpoint.params, 'path'),
      ...parameters(endpoint.query, 'query'),
    ],
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            description: 'JSON property names match case-insensitively.',
            content: { 'application/json': { schema: schemaRef(endpoint.body, 'input') } },
          },
        }
      : {}),
    security: securityOf(endpoint),
    responses,
  };
}

/** `/Consumer/PushMessageUsers/:id` as OpenAPI writes it: `/Consumer/PushMessageUsers/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Whether the site root serves a catalogue path too (the Consumer interface, as on the real platform). */
export const servedAtSiteRoot = (path: string) => /^\/consumer(authentication)?(\/|$)/i.test(path);

const DESCRIPTION = `The Tachyon Consumer API as this service implements it, generated from the contract.

**Base URLs.** Every endpoint is under \`/api\`. The Consumer interface (paths starting with \`/Consumer\` or
\`/ConsumerAuthentication\`) is also served at the site root, where the real platform serves it, so a client
configured with the server's address alone works. Paths and query parameter names match case-insensitively.

**Versions.** Select one with the \`${API_VERSION_HEADER}\` header or a \`v{major}.{minor}\` path segment right after
\`/Consumer/\` (\`/Consumer/v3.2/PushMessageUsers\`), as the published SDK does. Supported: ${SUPPORTED_VERSIONS.join(', ')};
default ${DEFAULT_API_VERSION}. Both given and different: 400 \`version-conflict\`. Every answer names the version that
served it in \`${API_VERSION_HEADER}\`. An endpoint missing from the selected version answers 404 \`unavailable-in-version\`.

**Authentication.** Sign in with \`POST /Consumer/Authentication\`, then send the token as
\`Authorization: Bearer <Token>\` or \`X-Tachyon-Authenticate: <Token>\`; or send HTTP Basic credentials with each call
(unless the service runs with BASIC_AUTH=off). 401 answers at the site root (\`/Consumer/...\`) to clients that are not
browsers offer both challenges; under \`/api\` they offer only Bearer, though Basic credentials work there too.

**Errors.** Every error is \`application/problem+json\` (RFC 9457) with \`Message\` (the detail) and \`ErrorCode\`
(the problem kind) beside the standard members.`;

/**
 * The OpenAPI 3.1 document of the catalogue: the endpoints a service with `demo` on or off serves (the demo actors
 * only while demo mode is on, since a document listing endpoints that answer 404 would mislead).
 */
export function openApiDocument(options: { version: string; demo: boolean }): Record<string, unknown> {
  const served = (Object.entries(endpoints) as Array<[string, Endpoint]>).filter(
    ([, endpoint]) => options.demo || !endpoint.demoOnly,
  );
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of served) {
    for (const path of [endpoint.path, ...endpoint.aliases]) {
      const key = openApiPath(path);
      paths[key] ??= servedAtSiteRoot(path) ? {} : { servers: [{ url: API_PREFIX }] };
      const alias =
        path === endpoint.path ? {} : { operationId: `${name}Alias`, summary: `${endpoint.summary} (alias)` };
      paths[key][endpoint.method.toLowerCase()] = { ...operation(name, endpoint), ...alias };
    }
  }

  // Only the schemas of the endpoints listed: with demo mode off, nothing of the demo actors shows.
  const used = new Set(
    served.flatMap(([, endpoint]) =>
      [endpoint.body, endpoint.response].flatMap((schema) => (schema && NAME_OF.get(schema)) || []),
    ),
  );
  used.add('Problem');
  const schemas = Object.fromEntries(
    [...NAMED].filter(([name]) => used.has(name)).map(([name, [schema, io]]) => [name, jsonSchema(schema, io)]),
  );
  const problem = schemas.Problem as { properties: Record<string, JsonSchema>; additionalProperties?: unknown };
  // RFC 9457: a problem may carry extension members beyond the ones listed.
  delete problem.additionalProperties;
  problem.properties.ErrorCode = { type: 'string', enum: [...PROBLEM_KINDS], description: 'The problem kind.' };
  problem.properties.type = {
    type: 'string',
    description: `https://tachyon-consumer.dev/problems/{kind}, kind being one of ${PROBLEM_KINDS.join(', ')}.`,
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Tachyon Consumer API',
      version: options.version,
      description: DESCRIPTION,
    },
    servers: [
      { url: API_PREFIX, description: 'Under /api (every endpoint)' },
      { url: '/', description: 'Site root (the Consumer interface, as the real platform serves it)' },
    ],
    tags: [
      { name: 'Consumer', description: 'The seed endpoints #1 to #10' },
      { name: 'Extensions', description: "This product's additions" },
      { name: 'Accounts', description: 'Account administration: local accounts, directory accounts, sign-in activity' },
      {
        name: 'Devices',
        description: 'The device app (enrolment, codes, Web Push) and instructions that need two-factor',
      },
      { name: 'Demo', description: 'Demo actors, while demo mode is on' },
    ],
    paths,
    components: {
      schemas,
      parameters: {
        ApiVersion: {
          name: API_VERSION_HEADER,
          in: 'header',
          required: false,
          description: `The API version to serve this request (default ${DEFAULT_API_VERSION}); or a v{major}.{minor} path segment after /Consumer/.`,
          schema: { type: 'string', enum: [...SUPPORTED_VERSIONS] },
        },
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The Token from POST /Consumer/Authentication, as Authorization: Bearer <Token>.',
        },
        tachyonToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Tachyon-Authenticate',
          description: "The same token in the header the real platform's clients send.",
        },
        basicCredentials: {
          type: 'http',
          scheme: 'basic',
          description: 'User name and password with every call (what the published SDK does); off with BASIC_AUTH=off.',
        },
        deviceToken: {
          type: 'http',
          scheme: 'Device',
          description:
            'An enrolled device: the DeviceToken from POST /Device/Enrollments, as Authorization: Device <DeviceToken>.',
        },
      },
    },
  };
}
