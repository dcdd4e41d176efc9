import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthorizationRequest,
  PushMessageUser,
  PushMessageUserList,
  type PushUserStatus,
  problemType,
} from '../../shared/contract/index.ts';
import {
  ADMIN,
  createTestApp,
  demoCreateRequest,
  HELPDESK,
  parseBody,
  type TestApp,
  useTestApp,
} from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * Concurrency: racing writers on one resource. Runs on the in-memory SQLite database by default
 * and on PostgreSQL when TEST_DATABASE_URL is set (npm run test:pg), where transactions really overlap.
 */
const POSTGRES = testDatabaseServer() !== null;
const STRESS = process.env.STRESS === '1';
const DECIDERS = 50;
const DECISION_ROUNDS = STRESS ? 20 : 2;
const STATUS_CHANGES = 200;
const STATUS_ROUNDS = STRESS ? 10 : 1;
const TIMEOUT_MS = STRESS ? 180_000 : 60_000;

const DECIDE_URL = '/api/Consumer/Authentication/AuthorizeDevice';
const PUSH_USERS_URL = '/api/Consumer/PushMessageUsers';

/** A small deterministic generator, so a failing round can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** The list's revision from its ETag: it moves exactly once per committed change of the list. */
function listRevision(response: LightMyRequestResponse): number {
  const match = /-(\d+)"$/.exec(String(response.headers.etag));
  if (!match) throw new Error(`unexpected ETag ${String(response.headers.etag)}`);
  return Number(match[1]);
}

describe(`concurrent writers (${POSTGRES ? 'PostgreSQL' : 'SQLite'})`, () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN, helpdesk: HELPDESK }, per: 'file' });

  const pushUsersOf = async (userName: string) => {
    const response = await t.call({ method: 'GET', url: PUSH_USERS_URL, token: tokens.admin });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, PushMessageUserList).filter((user) => user.UserName === userName);
  };

  it(
    `${DECIDERS} concurrent decisions on one request: exactly one 200, ${DECIDERS - 1} × 409 naming the winner, one push user (${DECISION_ROUNDS} rounds)`,
    async () => {
      for (let round = 0; round < DECISION_ROUNDS; round++) {
        const userName = `RACE\\decide-${round}`;
        const request = await demoCreateRequest(t, tokens.admin, { UserName: userName, DeviceType: 'Android' });
        const attempts = Array.from({ length: DECIDERS }, (_, i) => ({
          token: i % 2 === 0 ? tokens.admin : tokens.helpdesk,
          decidedBy: i % 2 === 0 ? ADMIN[0] : HELPDESK[0],
          comment: `attempt ${i}`,
        }));
        const responses = await Promise.all(
          attempts.map(({ token, comment }) =>
            t.call({
              method: 'POST',
              url: DECIDE_URL,
              token,
              payload: { RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: true, Comment: comment },
            }),
          ),
        );

        expect(countBy(responses, (response) => String(response.statusCode))).toEqual({
          200: 1,
          409: DECIDERS - 1,
        });
        const winnerIndex = responses.findIndex((response) => response.statusCode === 200);
        const winner = parseBody(responses[winnerIndex] as LightMyRequestResponse, AuthorizationRequest);
        // The answer is the winner's own decision, not a mix of several.
        expect(winner).toMatchObject({
          Id: request.Id,
          Status: 'Authorized',
          Comment: attempts[winnerIndex]?.comment,
          DecidedBy: attempts[winnerIndex]?.decidedBy,
        });
        for (const response of responses) {
          if (response.statusCode !== 409) continue;
          const problem = response.json<{ type: string; detail: string; decidedBy: string }>();
          expect(problem.type).toBe(problemType('already-decided'));
          expect(problem.decidedBy).toBe(winner.DecidedBy);
          expect(problem.detail).toContain(`already authorized by ${winner.DecidedBy}`);
        }

        const stored = await t.call({
          method: 'GET',
          url: `${DECIDE_URL.replace('AuthorizeDevice', 'AuthorizationRequests')}/${request.Id}`,
          token: tokens.admin,
        });
        expect(parseBody(stored, AuthorizationRequest)).toEqual(winner);
        const devices = await pushUsersOf(userName);
        expect(devices).toHaveLength(1);
        expect(devices[0]).toMatchObject({ UserName: userName, DeviceType: 'Android', Status: 1 });
      }
    },
    TIMEOUT_MS,
  );

  it(
    'concurrent approvals and rejections: one outcome, and a push user exactly when it was an approval',
    async () => {
      for (let round = 0; round < DECISION_ROUNDS; round++) {
        const userName = `RACE\\mixed-${round}`;
        const request = await demoCreateRequest(t, tokens.admin, { UserName: userName, DeviceType: 'iOS' });
        const responses = await Promise.all(
          Array.from({ length: DECIDERS }, (_, i) =>
            t.call({
              method: 'POST',
              url: DECIDE_URL,
              token: i % 3 === 0 ? tokens.helpdesk : tokens.admin,
              payload: { RequestId: request.Id, RequestGuid: request.RequestGuid, Authorized: i % 2 === 0 },
            }),
          ),
        );
        const won = responses.filter((response) => response.statusCode === 200);
        expect(won).toHaveLength(1);
        expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(DECIDERS - 1);
        const outcome = parseBody(won[0] as LightMyRequestResponse, AuthorizationRequest).Status;
        expect(await pushUsersOf(userName)).toHaveLength(outcome === 'Authorized' ? 1 : 0);
      }
    },
    TIMEOUT_MS,
  );

  it(
    `${STATUS_CHANGES} concurrent status changes on one push user: the stored state is the last commit's (${STATUS_ROUNDS} rounds)`,
    async () => {
      // Every reading of the clock is a distinct millisecond, so each change carries its own timestamp.
      t.clock.step = 1;
      try {
        for (let round = 0; round < STATUS_ROUNDS; round++) {
          const [target] = await pushUsersOf('DEMO\\helpdesk');
          if (!target) throw new Error('the demo data has no push user for DEMO\\helpdesk');
          const before = await t.call({ method: 'GET', url: PUSH_USERS_URL, token: tokens.admin });
          const next = random(1000 + round);
          const sent = Array.from({ length: STATUS_CHANGES }, () => (1 + Math.floor(next() * 3)) as PushUserStatus);
          const responses = await Promise.all(
            sent.map((status, i) =>
              t.call({
                method: 'PUT',
                url: PUSH_USERS_URL,
                token: i % 2 === 0 ? tokens.admin : tokens.helpdesk,
                // Fields other than Id and Status are ignored, whatever they hold (seed §3 rule 2).
                payload: { ...target, Status: status, UserName: `IGNORED\\${i}`, CreatedTimeStampUtc: 'x' },
              }),
            ),
          );

          expect(countBy(responses, (response) => String(response.statusCode))).toEqual({ 200: STATUS_CHANGES });
          const answers = responses.map((response) => parseBody(response, PushMessageUser));
          answers.forEach((answer, i) => {
            // Each answer is its own change, applied to an otherwise unchanged user.
            expect(answer).toMatchObject({
              Id: target.Id,
              UserName: target.UserName,
              DeviceType: target.DeviceType,
              CreatedTimeStampUtc: target.CreatedTimeStampUtc,
              Status: sent[i],
            });
          });
          const stamps = answers.map((answer) => answer.ModifiedTimestampUtc);
          expect(new Set(stamps).size).toBe(STATUS_CHANGES);

          // The service reads the clock only once it holds the row, so commits happen in timestamp order:
          // the last commit is the change with the latest timestamp, and the stored state must be exactly it.
          const last = answers.reduce((a, b) => (b.ModifiedTimestampUtc > a.ModifiedTimestampUtc ? b : a));
          const stored = await t.call({ method: 'GET', url: `${PUSH_USERS_URL}/${target.Id}`, token: tokens.admin });
          expect(parseBody(stored, PushMessageUser)).toEqual(last);
          expect(sent).toContain(last.Status);

          // No change was lost: the list moved on by exactly one revision per acknowledged change.
          const after = await t.call({ method: 'GET', url: PUSH_USERS_URL, token: tokens.admin });
          expect(listRevision(after) - listRevision(before)).toBe(STATUS_CHANGES);
        }
      } finally {
        t.clock.step = 0;
      }
    },
    TIMEOUT_MS,
  );
});

/**
 * Two service processes on one database keep decisions exactly-once. Two app instances,
 * each with its own connection pool, on one PostgreSQL database are, to the database, two processes.
 */
describe.runIf(POSTGRES)('two service instances on one PostgreSQL database', () => {
  const REQUESTS = STRESS ? 60 : 20;
  const PER_INSTANCE = 10;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ databaseUrl: first.config.databaseUrl });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it(
    `keeps decisions exactly-once: ${REQUESTS} requests, each raced by ${PER_INSTANCE} deciders per instance`,
    async () => {
      const tokens = {
        first: [await first.login(...ADMIN), await first.login(...HELPDESK)],
        second: [await second.login(...ADMIN), await second.login(...HELPDESK)],
      };
      const requests = [];
      for (let i = 0; i < REQUESTS; i++) {
        const creator = i % 2 === 0 ? first : second;
        const token = i % 2 === 0 ? tokens.first[0] : tokens.second[0];
        requests.push(await demoCreateRequest(creator as TestApp, token as string, { UserName: `TWIN\\user-${i}` }));
      }

      const races = requests.map(async (request, i) => {
        // Interleaved, and which instance sends first alternates per request, so neither gets a head start
        // on every race. Responses are kept in instance order: even indexes are the first instance's.
        const order = i % 2 === 0 ? [0, 1] : [1, 0];
        const sent = Array.from({ length: PER_INSTANCE }, (_, k) => k).flatMap((k) =>
          order.map((which) => ({
            which,
            k,
            response: (which === 0 ? first : second).call({
              method: 'POST',
              url: DECIDE_URL,
              token: (which === 0 ? tokens.first : tokens.second)[k % 2],
              payload: {
                RequestId: request.Id,
                RequestGuid: request.RequestGuid,
                Authorized: (i + k) % 4 !== 0,
                Comment: `instance ${which + 1}, attempt ${k}`,
              },
            }),
          })),
        );
        const responses: LightMyRequestResponse[] = [];
        for (const attempt of sent) responses[attempt.k * 2 + attempt.which] = await attempt.response;
        return { request, responses };
      });
      const results = await Promise.all(races);

      const byInstance = { first: 0, second: 0 };
      for (const { request, responses } of results) {
        expect(countBy(responses, (response) => String(response.statusCode))).toEqual({
          200: 1,
          409: 2 * PER_INSTANCE - 1,
        });
        const winnerAt = responses.findIndex((response) => response.statusCode === 200);
        byInstance[winnerAt % 2 === 0 ? 'first' : 'second'] += 1;
        const winner = parseBody(responses[winnerAt] as LightMyRequestResponse, AuthorizationRequest);
        // Both instances read back the one decision that won.
        for (const instance of [first, second]) {
          const read = await instance.call({
            method: 'GET',
            url: `/api/Consumer/Authentication/AuthorizationRequests/${request.Id}`,
            token: instance === first ? tokens.first[0] : tokens.second[0],
          });
          expect(parseBody(read, AuthorizationRequest)).toEqual(winner);
        }
      }
      const list = parseBody(
        await second.call({ method: 'GET', url: PUSH_USERS_URL, token: tokens.second[0] }),
        PushMessageUserList,
      );
      for (const { request, responses } of results) {
        const winner = parseBody(
          responses.find((response) => response.statusCode === 200) as LightMyRequestResponse,
          AuthorizationRequest,
        );
        const devices = list.filter((user) => user.UserName === request.UserName);
        expect(devices).toHaveLength(winner.Status === 'Authorized' ? 1 : 0);
      }
      // Both instances won some races: the test really exercised two writers, not one.
      expect(byInstance.first).toBeGreaterThan(0);
      expect(byInstance.second).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
