import net from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  AuthorizationRequestList,
  endpoints,
  Problem,
  PushMessageUserList,
} from '../../shared/contract/index.ts';
import {
  apiVersion,
  bodyEndpoints,
  buildQuery,
  catalogue,
  contentType,
  endpointOf,
  fillPath,
  headerText,
  idParam,
  ifNoneMatch,
  mutatedBody,
  pathVariant,
  query,
  rawPayload,
  text,
} from '../test/fuzz-generators.ts';
import { checkAnswer, LEAKS, type Sent, stats } from '../test/fuzz-oracle.ts';
import { ADMIN, AUDITOR, OPERATOR, parseBody, useTestApp } from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * Bad input: property-based requests against every endpoint of the catalogue, malformed in every
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

describe(`fuzzing every endpoint with malformed requests (${POSTGRES ? 'PostgreSQL' : 'SQLite'}, ${RUNS} runs per property)`, () => {
  // Failed sign-ins are not throttled here, so every fuzzed sign-in takes the full password check.
  const { t } = useTestApp({ config: { loginFailuresPerAddress: 100_000, loginFailuresPerUser: 1000 }, per: 'file' });
  const tokens: Record<string, string> = {};
  const validBodies: Record<string, Record<string, unknown>> = {};
  beforeAll(async () => {
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
      'GET /api/Consumer/Version HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n',
      `GET /api/Consumer/Version HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      'GET /api/Consumer/Version HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /api/\u0000 HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'GET /api/Consumer/PushMessageUsers/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      `GET /api/Consumer/PushMessageUsers/${'1'.repeat(300)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      'GET /api/Consumer/Version HTTP/9.9\r\nHost: localhost\r\n\r\n',
      'POST /api/Consumer/Authentication HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
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
