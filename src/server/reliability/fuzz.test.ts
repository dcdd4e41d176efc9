import net from 'node:net';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  AuthorizationRequestList,
  type Endpoint,
  type EndpointName,
  endpoints,
  Problem,
  PushMessageUserList,
  SUPPORTED_VERSIONS,
} from '../../shared/contract/index.ts';
import { ADMIN, AUDITOR, createTestApp, OPERATOR, parseBody, type TestApp } from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * Issue 5 "Bad input": property-based requests against every endpoint of the catalogue, malformed in every
 * way a client (or an attacker) can: wrong types, missing and extra fields, huge numbers, unicode, deep
 * nesting, wrong content types, invalid JSON, odd header and Api-Version values, long paths, case variants.
 *
 * The oracle, for every answer: no 5xx; every error is application/problem+json whose detail says something;
 * no stack frame, file path, SQL text or internal error name ever appears (unless the request itself sent it
 * and the answer merely echoes it).
 *
 * FUZZ_RUNS sets the runs per property (default 1000; `npm run test:stress` uses 6000); FUZZ_SEED replays a run.
 */
const STRESS = process.env.STRESS === '1';
const RUNS = Number(process.env.FUZZ_RUNS) || (STRESS ? 6000 : 1000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const POSTGRES = testDatabaseServer() !== null;
/** Per property: generous, since two slow cores and PostgreSQL can take several milliseconds a request. */
const TIMEOUT_MS = 30_000 + RUNS * 25;

// Endpoints go by name, so a failing counterexample reads well.
// The change stream never ends when it succeeds, so inject() would wait forever; its own tests cover it.
const catalogue = (Object.keys(endpoints) as EndpointName[]).filter((name) => name !== 'changeEvents');
const bodyEndpoints = catalogue.filter((name) => endpointOf(name).body !== undefined);

function endpointOf(name: EndpointName): Endpoint {
  return endpoints[name];
}

// ---------------------------------------------------------------------------------------------------------
// The oracle

const LEAKS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'a stack frame',
    /\n\s+at |\bat (?:async )?[\w$.<>[\] ]+ \((?:file:|node:|\/)|\bat (?:file:|node:internal|\/[\w.-]+\/)/,
  ],
  ['a file path', /(?:\/(?:work|home|usr|tmp|src|dist|node_modules)\/[\w./-]+)|\b[\w-]+\.(?:ts|js|mjs|cjs):\d+/],
  [
    'SQL text',
    /\b(?:select|insert|update|delete)\b[^.]{0,80}?\b(?:from|into|set|where)\b|SQLITE_|\bsqlite\b|syntax error at|relation "|violates|duplicate key|out of range for type|\bpg_\w+|kysely/i,
  ],
  [
    'an internal error name',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|AssertionError)\b|FST_ERR_\w+|\bERR_[A-Z_]{4,}/,
  ],
];

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const stats = { requests: 0, byStatus: new Map<number, number>() };

function requestText(sent: Sent): string {
  let decoded = sent.url;
  try {
    decoded = decodeURIComponent(sent.url);
  } catch {
    // keep the raw URL
  }
  return [sent.method, sent.url, decoded, JSON.stringify(sent.headers), sent.payload ?? ''].join('\n');
}

/** Throws (so fast-check shrinks and reports the request) when an answer breaks a rule. */
function checkAnswer(sent: Sent, response: LightMyRequestResponse): void {
  stats.requests += 1;
  stats.byStatus.set(response.statusCode, (stats.byStatus.get(response.statusCode) ?? 0) + 1);
  const shown = () =>
    `${sent.method} ${sent.url.slice(0, 200)} ${JSON.stringify(sent.headers).slice(0, 300)} ${String(sent.payload).slice(0, 300)}\n→ ${response.statusCode} ${String(response.headers['content-type'])} ${response.body.slice(0, 500)}`;
  if (response.statusCode >= 500) throw new Error(`5xx answer: ${shown()}`);
  if (response.statusCode < 400) return;

  const contentType = String(response.headers['content-type'] ?? '');
  if (!/^application\/problem\+json(?:;|$)/.test(contentType)) throw new Error(`error without a problem: ${shown()}`);
  if (sent.method === 'HEAD') return; // a HEAD answer has no body by definition
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`problem body is not JSON: ${shown()}`);
  }
  const problem = Problem.safeParse(body);
  if (!problem.success) throw new Error(`problem body does not match the contract: ${shown()}`);
  const { detail, status, title } = problem.data;
  if (status !== response.statusCode) throw new Error(`problem status differs from the HTTP status: ${shown()}`);
  if (!detail || detail.trim().length < 10 || detail === title)
    throw new Error(`problem without a useful detail: ${shown()}`);

  const echoed = requestText(sent);
  for (const [what, pattern] of LEAKS) {
    const match = pattern.exec(response.body);
    if (match && !echoed.includes(match[0])) throw new Error(`answer leaks ${what} ("${match[0]}"): ${shown()}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries

const nastyStrings = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\u202Eevil',
  '💥🔥',
  'İıſK',
  'ﬀ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x1F',
  '١٢٣',
  '../../etc/passwd',
  '%00',
  '%',
  "' OR 1=1 --",
  '"; DROP TABLE principals; --',
  '<script>alert(1)</script>',
  '#{7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'DEMO\\admin',
  '00000000-0000-0000-0000-000000000000',
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32,
    2 ** 53 - 1,
    2 ** 53 + 2,
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    5e-324,
  ),
);

/** Deeply nested arrays or objects: what a recursive parser or validator chokes on. */
const nested = fc.integer({ min: 20, max: 3000 }).chain((depth) =>
  fc
    .constantFrom(
      () => {
        let value: unknown = 1;
        for (let i = 0; i < depth; i++) value = [value];
        return value;
      },
      () => {
        let value: unknown = 'x';
        for (let i = 0; i < depth; i++) value = { Id: value };
        return value;
      },
    )
    .map((build) => build()),
);

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 3, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: nested },
);

/** Every field name a body could carry, the real ones in odd casing included. */
const fieldName = fc.oneof(
  fc.constantFrom(
    'UserName',
    'username',
    'USERNAME',
    'Password',
    'Id',
    'id',
    'ID',
    'InstructionId',
    'Token',
    'RequestId',
    'requestid',
    'RequestGuid',
    'Authorized',
    'Comment',
    'Status',
    'status',
    'Scheduled',
    'DeviceType',
    'ModifiedTimestampUtc',
    'CreatedTimeStampUtc',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '',
  ),
  fc.string({ maxLength: 12 }),
);

const nonObjectBody = fc.oneof(fc.array(jsonValue, { maxLength: 4 }), text, number, fc.boolean(), fc.constant(null));

/** A well-formed JSON document, mutated from the endpoint's valid example. */
function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const fromValid = fc
    .record({
      drop: keys.length > 0 ? fc.subarray(keys) : fc.constant([] as string[]),
      replace: fc.array(fc.tuple(keys.length > 0 ? fc.constantFrom(...keys) : fieldName, jsonValue), { maxLength: 3 }),
      extra: fc.array(fc.tuple(fieldName, jsonValue), { maxLength: 3 }),
      recase: fc.constantFrom('keep', 'lower', 'upper'),
    })
    .map(({ drop, replace, extra, recase }) => {
      const body: Record<string, unknown> = { ...valid };
      for (const key of drop) delete body[key];
      for (const [key, value] of replace) body[key] = value;
      for (const [key, value] of extra) body[key] = value;
      if (recase === 'keep') return body;
      return Object.fromEntries(
        Object.entries(body).map(([key, value]) => [recase === 'lower' ? key.toLowerCase() : key.toUpperCase(), value]),
      );
    });
  return fc.oneof({ weight: 4, arbitrary: fromValid }, { weight: 1, arbitrary: nonObjectBody });
}

/** Bytes that are not the JSON they claim to be, or JSON that trips parsers. */
const rawPayload = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"Id":}',
    '[1,]',
    "{'Id':1}",
    '{"Id":1,}',
    'NaN',
    'undefined',
    '\uFEFF{}',
    '{"Id":1e999}',
    '{"Id":-1e999,"Status":1}',
    '{"Id":123456789012345678901234567890,"Status":1}',
    '{"Id":1,"Id":"x","Status":1}',
    '{"__proto__":{"Status":1},"Id":1}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"Id":1,"Status":1}garbage',
    '{"Id":"\\ud800","Token":"\\u0000"}',
    '\u0000\u0001\u0002',
    'null',
    '""',
    '[]',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer({ min: 1000, max: 30_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1000, max: 10_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 60_000, max: 80_000 }).map((n) => `{"UserName":"${'a'.repeat(n)}","Password":"x"}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `[${'1,'.repeat(n)}1]`),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;',
  'application/json, text/plain',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  'json',
  ';',
  '',
);

/** What an HTTP header can carry: visible ASCII, spaces, tabs and obs-text bytes. */
const headerText = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
  fc.constantFrom('', ' ', '\t', 'null', '%00', '\u00ff\u00fe'),
  fc.nat({ max: 8000 }).map((n) => 'h'.repeat(n)),
);

const apiVersion = fc.oneof(
  fc.constantFrom(...SUPPORTED_VERSIONS),
  fc.constantFrom(
    '3',
    '3.',
    '3.30',
    '3.3.0',
    'v3.3',
    ' 3.3 ',
    '3.3,4.0',
    '4.0; q=1',
    '2.9',
    '5.0',
    '-3.3',
    '3,3',
    '03.3',
  ),
  headerText,
);

const ifNoneMatch = fc.oneof(
  fc.constantFrom('*', '"x"', 'W/"x"', '"push_message_users-all-1"', ',,,', 'W/'),
  headerText,
);

/** A path in odd casing, with odd suffixes: the router must stay case-insensitive and never stumble. */
function pathVariant(path: string): fc.Arbitrary<string> {
  return fc
    .record({
      casing: fc.constantFrom('keep', 'lower', 'upper', 'mixed'),
      suffix: fc.constantFrom(
        '',
        '',
        '',
        '/',
        '//',
        '/.',
        '/..',
        '/%2e%2e',
        ';x',
        '%2F',
        '/extra',
        '%00',
        '%',
        '%zz',
        '/%E0%A4%A',
      ),
      prefix: fc.constantFrom('', '', '', '/', '/.'),
    })
    .map(({ casing, suffix, prefix }) => {
      const cased =
        casing === 'keep'
          ? path
          : casing === 'lower'
            ? path.toLowerCase()
            : casing === 'upper'
              ? path.toUpperCase()
              : [...path].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
      return `${prefix}${cased}${suffix}`;
    });
}

const idParam = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '0x10',
    '١',
    '2147483648',
    '9007199254740993',
    '99999999999999999999',
    '%20',
    '%2e%2e',
    '..',
    'null',
    '%F0%9F%92%A5',
  ),
  fc.integer({ min: 150, max: 400 }).map((n) => '9'.repeat(n)),
  text.map((value) => encodeURIComponent(value)),
);

const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('getall', 'GetAll', 'getAll', 'GETALL', 'get all', '__proto__', 'a[b]', ''), text),
    fc.oneof(fc.constantFrom('true', 'false', 'TRUE', 'False', '1', '0', 'yes', '', 'null', 'true,false'), text),
    fc.boolean(),
  ),
  { maxLength: 4 },
);

function buildQuery(pairs: ReadonlyArray<readonly [string, string, boolean]>): string {
  if (pairs.length === 0) return '';
  // Mostly well encoded; sometimes raw, as a sloppy client would send it.
  return `?${pairs.map(([key, value, encode]) => (encode ? `${encodeURIComponent(key)}=${encodeURIComponent(value)}` : `${key}=${value}`)).join('&')}`;
}

function fillPath(endpoint: Endpoint, id: string): string {
  return endpoint.path.replace(/:(\w+)/g, () => id);
}

// ---------------------------------------------------------------------------------------------------------

describe(`fuzzing every endpoint with malformed requests (${POSTGRES ? 'PostgreSQL' : 'SQLite'}, ${RUNS} runs per property)`, () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const validBodies: Record<string, Record<string, unknown>> = {};
  beforeAll(async () => {
    // Failed sign-ins are not throttled here, so every fuzzed sign-in takes the full password check.
    t = await createTestApp({ loginFailuresPerAddress: 100_000, loginFailuresPerUser: 1000 });
    tokens.admin = await t.login(...ADMIN);
    tokens.auditor = await t.login(...AUDITOR);
    tokens.operator = await t.login(...OPERATOR);
    const requests = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/Authentication/AuthorizationRequests', token: tokens.admin }),
      AuthorizationRequestList,
    );
    const users = parseBody(
      await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin }),
      PushMessageUserList,
    );
    const pending = requests[0];
    const user = users[0];
    if (!pending || !user) throw new Error('the demo data has no pending request or push user');
    validBodies[endpoints.login.path] = { UserName: 'DEMO\\nobody', Password: 'wrong' };
    validBodies[endpoints.submitObsoleteToken.path] = { InstructionId: 1, Token: '123456' };
    validBodies[endpoints.submitInstructionToken.path] = { Id: 1, Token: '123456' };
    validBodies[endpoints.submitScheduledInstructionToken.path] = { Id: 1, Token: '123456' };
    validBodies[endpoints.authorizeDevice.path] = {
      RequestId: pending.Id,
      RequestGuid: pending.RequestGuid,
      Authorized: false,
      Comment: 'fuzz',
    };
    validBodies[endpoints.updatePushMessageUser.path] = { ...user, Status: 2 };
    validBodies[endpoints.demoCreateAuthorizationRequest.path] = { UserName: 'FUZZ\\device', DeviceType: 'Android' };
    validBodies[endpoints.demoCreateInstruction.path] = { Scheduled: false };
  });
  afterAll(async () => {
    const classes = [...stats.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.info(
      `fuzz: ${stats.requests} requests (${POSTGRES ? 'PostgreSQL' : 'SQLite'}); answers ${classes.join(' ')}`,
    );
    await t?.close();
  });

  /** Sends one request and applies the oracle. Sign-out is never sent with a real session (it would end it). */
  async function send(sent: Sent): Promise<void> {
    const options: InjectOptions = {
      method: sent.method as InjectOptions['method'],
      url: sent.url,
      headers: sent.headers,
      ...(sent.payload !== undefined ? { payload: sent.payload } : {}),
    };
    checkAnswer(sent, await t.app.inject(options));
  }

  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('admin', 'auditor', 'operator').map((who) => `Bearer ${tokens[who]}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'bearer x',
        'Basic ZGVtbzpkZW1v',
        `Bearer ${'A'.repeat(600)}`,
        'Bearer a b',
        'Bearer \u00ff',
      ),
    },
    { weight: 1, arbitrary: headerText },
  );

  const options = () => ({ numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: false });

  function headersFor(record: {
    authorization: string | null;
    version: string | null;
    type: string | null;
    extra: ReadonlyArray<readonly [string, string]>;
  }): Record<string, string> {
    const headers: Record<string, string> = {};
    if (record.authorization !== null) headers.authorization = record.authorization;
    if (record.version !== null) headers['api-version'] = record.version;
    if (record.type !== null) headers['content-type'] = record.type;
    for (const [name, value] of record.extra) headers[name] = value;
    return headers;
  }

  const extraHeaders = fc.array(
    fc.tuple(
      fc.constantFrom('if-none-match', 'x-tachyon-consumer', 'accept', 'x-forwarded-for', 'accept-encoding', 'origin'),
      fc.oneof(headerText, ifNoneMatch),
    ),
    { maxLength: 3 },
  );

  /** Sign-out with a real session would end the fuzzer's own sessions: it only ever gets junk credentials. */
  function safeAuthorization(method: string, path: string, value: string | null): string | null {
    const signOut = method === 'DELETE' && path.toLowerCase().includes('/authentication/session');
    return signOut && value?.startsWith('Bearer ') && Object.values(tokens).some((token) => value.includes(token))
      ? 'Bearer not-a-session'
      : value;
  }

  it(
    'every endpoint: structurally mutated JSON bodies (wrong types, missing and extra fields, huge numbers, unicode, nesting)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...bodyEndpoints).chain((name) =>
            fc.record({
              endpoint: fc.constant(name),
              body: mutatedBody(validBodies[endpointOf(name).path] ?? {}),
              authorization: fc.option(authorization, { freq: 8 }),
              version: fc.option(fc.constantFrom('3.0', '3.3', '3.3', '3.3', '4.0'), { freq: 2 }),
              type: fc.option(fc.constantFrom('application/json', 'application/json; charset=utf-8'), { freq: 8 }),
              extra: extraHeaders,
            }),
          ),
          async ({ endpoint: name, body, ...header }) => {
            const endpoint = endpointOf(name);
            const url = `${API_PREFIX}${fillPath(endpoint, '1')}`;
            await send({
              method: endpoint.method,
              url,
              headers: headersFor({
                ...header,
                authorization: safeAuthorization(endpoint.method, url, header.authorization),
              }),
              payload: JSON.stringify(body),
            });
          },
        ),
        options(),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'every endpoint: raw payloads (invalid JSON, deep nesting, oversized) under every content type',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            endpoint: fc.constantFrom(...catalogue),
            payload: rawPayload,
            type: fc.option(contentType, { freq: 6 }),
            authorization: fc.option(authorization, { freq: 8 }),
            method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), { freq: 3 }),
          }),
          async ({ endpoint: name, payload, type, authorization: auth, method: otherMethod }) => {
            const endpoint = endpointOf(name);
            const method = otherMethod ?? endpoint.method;
            const url = `${API_PREFIX}${fillPath(endpoint, '1')}`;
            await send({
              method,
              url,
              headers: headersFor({
                authorization: safeAuthorization(method, url, auth),
                version: null,
                type,
                extra: [],
              }),
              payload,
            });
          },
        ),
        options(),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'every endpoint: odd paths, path parameters, query strings, case variants and methods',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...catalogue).chain((name) =>
            fc.record({
              endpoint: fc.constant(name),
              path: idParam.chain((id) => pathVariant(`${API_PREFIX}${fillPath(endpointOf(name), id)}`)),
              query: query,
              method: fc.oneof(
                { weight: 6, arbitrary: fc.constant(endpointOf(name).method as string) },
                { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
              ),
              authorization: fc.option(authorization, { freq: 8 }),
            }),
          ),
          async ({ endpoint: name, path, query: pairs, method, authorization: auth }) => {
            const endpoint = endpointOf(name);
            const url = `${path}${buildQuery(pairs)}`;
            const body = validBodies[endpoint.path];
            const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
            await send({
              method,
              url,
              headers: headersFor({
                authorization: safeAuthorization(method, url, auth),
                version: null,
                type: hasBody ? 'application/json' : null,
                extra: [],
              }),
              ...(hasBody ? { payload: JSON.stringify(body) } : {}),
            });
          },
        ),
        options(),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'every endpoint: odd Api-Version, Authorization, If-None-Match and other header values',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            endpoint: fc.constantFrom(...catalogue),
            authorization: fc.option(authorization, { freq: 3 }),
            version: fc.option(apiVersion, { freq: 8 }),
            type: fc.option(contentType, { freq: 2 }),
            extra: extraHeaders,
          }),
          async ({ endpoint: name, ...header }) => {
            const endpoint = endpointOf(name);
            const url = `${API_PREFIX}${fillPath(endpoint, '1')}`;
            const body = validBodies[endpoint.path];
            await send({
              method: endpoint.method,
              url,
              headers: headersFor({
                ...header,
                authorization: safeAuthorization(endpoint.method, url, header.authorization),
                type: header.type ?? (body ? 'application/json' : null),
              }),
              ...(body ? { payload: JSON.stringify(body) } : {}),
            });
          },
        ),
        options(),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'anywhere: random and very long paths, inside /api and out',
    async () => {
      const segment = fc.oneof(
        fc.constantFrom(
          'Consumer',
          'consumer',
          'Authentication',
          'PushMessageUsers',
          'Demo',
          '..',
          '.',
          '',
          '%2F',
          '%00',
        ),
        text.map((value) => encodeURIComponent(value)),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            root: fc.constantFrom('/api', '/API', '/Api', '', '//api', '/api/api'),
            segments: fc.array(segment, { maxLength: 8 }),
            long: fc.option(fc.integer({ min: 1000, max: 60_000 }), { freq: 4 }),
            method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
            authorization: fc.option(authorization, { freq: 2 }),
          }),
          async ({ root, segments, long, method, authorization: auth }) => {
            const url = `${root}/${segments.join('/')}${long === null ? '' : `/${'Z'.repeat(long)}`}`;
            await send({
              method,
              url,
              headers: headersFor({
                authorization: safeAuthorization(method, url, auth),
                version: null,
                type: null,
                extra: [],
              }),
            });
          },
        ),
        options(),
      );
    },
    TIMEOUT_MS,
  );

  it('answers malformed HTTP on a real socket with problems too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address !== 'object') throw new Error('not listening');
    const raw = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(address.port, '127.0.0.1');
        let answer = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('error', () => resolve(answer));
        socket.on('close', () => resolve(answer));
        socket.setTimeout(5000, () => {
          socket.destroy();
          reject(new Error(`no answer to ${JSON.stringify(bytes.slice(0, 80))}`));
        });
        socket.write(bytes, 'latin1');
      });
    const cases = [
      'GARBAGE\r\n\r\n',
      'GET /api/Consumer/Version HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n',
      `GET /api/Consumer/Version HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      'GET /api/Consumer/Version HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /api/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/Consumer/PushMessageUsers/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      `GET /api/Consumer/PushMessageUsers/${'1'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      'GET /api/Consumer/Version HTTP/9.9\r\nHost: x\r\n\r\n',
      'POST /api/Consumer/Authentication HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    ];
    for (const bytes of cases) {
      const answer = await raw(bytes);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      expect(status, `${JSON.stringify(bytes.slice(0, 100))} → ${answer.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(head, answer.slice(0, 300)).toMatch(/\r\ncontent-type: application\/problem\+json/i);
      const problem = Problem.parse(JSON.parse(body));
      expect(problem.status).toBe(status);
      expect(problem.detail?.length).toBeGreaterThan(10);
      for (const [, pattern] of LEAKS) expect(body).not.toMatch(pattern);
    }
  });
});
