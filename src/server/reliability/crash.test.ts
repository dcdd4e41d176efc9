import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthorizationRequest,
  AuthorizationRequestList,
  PushMessageUser,
  PushMessageUserDetail,
  PushMessageUserList,
  type PushUserStatus,
} from '../../shared/contract/index.ts';
import { ADMIN, HELPDESK } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService } from '../test/service-process.ts';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../test/test-database.ts';

/**
 * Crash safety: the built service as a real process on the embedded database (or on PostgreSQL
 * under `npm run test:pg`), a stream of writes, SIGKILL at a random moment, restart, and an audit:
 * every acknowledged write is there, and nothing is half-written. Then SIGTERM with requests in flight.
 */
const STRESS = process.env.STRESS === '1';
const KILL_CYCLES = Number(process.env.KILL_CYCLES) || (STRESS ? 25 : 5);
const POSTGRES_SERVER = testDatabaseServer();
const STATUS_WORKERS = 3;
const REQUEST_WORKERS = 2;

interface Answer {
  status: number;
  body: unknown;
}

async function call(api: string, method: string, route: string, token?: string, payload?: unknown): Promise<Answer> {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function login(api: string, [userName, password]: readonly [string, string]): Promise<string> {
  const answer = await call(api, 'POST', '/Consumer/Authentication', undefined, {
    UserName: userName,
    Password: password,
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as { Token: string }).Token;
}

/** The fields a request is created with, which nothing may change afterwards. */
function asCreated(request: AuthorizationRequest) {
  const { Id, UserName, UserEmail, RequestGuid, DeviceType, CreatedTimestampUtc, Manufacturer, Model, OsVersion } =
    request;
  return { Id, UserName, UserEmail, RequestGuid, DeviceType, CreatedTimestampUtc, Manufacturer, Model, OsVersion };
}

const randomInt = (below: number) => Math.floor(Math.random() * below);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the test knows was acknowledged, and what was still in flight when the process died. */
interface PushUserLedger {
  acked: PushMessageUser;
  inFlight: PushUserStatus | null;
}
interface RequestLedger {
  created: AuthorizationRequest;
  decision: { Authorized: boolean; Comment: string } | null;
  decisionAcked: boolean;
}

describe(`crash safety of the built service (${POSTGRES_SERVER ? 'PostgreSQL' : 'embedded SQLite'})`, () => {
  let dataDir: string;
  let database: TestDatabase | null = null;
  let service: ServiceProcess | null = null;

  const env = (extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    DEMO: 'on',
    PASSWORD_HASH_COST: '1024',
    LOGIN_RATE_PER_MINUTE: '100000',
    DEMO_CREATIONS_PER_MINUTE: '100000',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...extra,
  });

  beforeAll(async () => {
    ensureServerBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-crash-'));
    if (POSTGRES_SERVER) database = await createTestDatabase(POSTGRES_SERVER);
  }, 120_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** SQLite's own check of the file the killed process left behind. */
  function checkSqliteIntegrity(): void {
    if (database) return;
    const sqlite = new SQLite(path.join(dataDir, 'tachyon.sqlite'));
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    } finally {
      sqlite.close();
    }
  }

  it(
    `keeps every acknowledged write through ${KILL_CYCLES} SIGKILLs at random moments, with nothing half-written`,
    async () => {
      service = await startService(env());
      const firstToken = await login(service.api, ADMIN);
      const pushUsers = new Map<number, PushUserLedger>();
      const requests = new Map<number, RequestLedger>();
      const initial = await call(service.api, 'GET', '/Consumer/PushMessageUsers', firstToken);
      for (const user of PushMessageUserList.parse(initial.body))
        pushUsers.set(user.Id, { acked: user, inFlight: null });
      const totals = { statusChanges: 0, created: 0, decisions: 0, inFlightCommitted: 0, inFlightLost: 0 };

      for (let cycle = 0; cycle < KILL_CYCLES; cycle++) {
        const { api } = service;
        const admin = await login(api, ADMIN);
        const helpdesk = await login(api, HELPDESK);
        let stopped = false;
        const failures: string[] = [];
        const owned = [...pushUsers.values()].filter((entry) => !entry.acked.UserName.startsWith('CRASH\\'));

        // Each status worker owns its own push users, so their writes are ordered and at most one is in flight.
        const statusWorker = async (worker: number) => {
          const mine = owned.filter((_, i) => i % STATUS_WORKERS === worker);
          while (!stopped && mine.length > 0) {
            const entry = mine[randomInt(mine.length)] as PushUserLedger;
            const status = (1 + randomInt(3)) as PushUserStatus;
            entry.inFlight = status;
            let answer: Answer;
            try {
              answer = await call(api, 'PUT', '/Consumer/PushMessageUsers', helpdesk, {
                Id: entry.acked.Id,
                Status: status,
              });
            } catch {
              return; // the process died with this write in flight
            }
            if (answer.status !== 200) failures.push(`PUT answered ${answer.status} ${JSON.stringify(answer.body)}`);
            else {
              entry.acked = PushMessageUser.parse(answer.body);
              entry.inFlight = null;
              totals.statusChanges += 1;
            }
          }
        };

        // A device asks (demo actor), then an admin decides: two acknowledged writes per round.
        const requestWorker = async (worker: number) => {
          for (let n = 0; !stopped; n++) {
            const userName = `CRASH\\c${cycle}-w${worker}-${n}`;
            let created: Answer;
            try {
              created = await call(api, 'POST', '/Demo/AuthorizationRequests', admin, {
                UserName: userName,
                DeviceType: n % 2 === 0 ? 'iOS' : 'Android',
              });
            } catch {
              return;
            }
            if (created.status !== 201) {
              failures.push(`create answered ${created.status} ${JSON.stringify(created.body)}`);
              return;
            }
            const entry: RequestLedger = {
              created: AuthorizationRequest.parse(created.body),
              decision: null,
              decisionAcked: false,
            };
            requests.set(entry.created.Id, entry);
            totals.created += 1;
            entry.decision = {
              Authorized: randomInt(3) !== 0,
              Comment: `decided in cycle ${cycle} by worker ${worker}`,
            };
            let decided: Answer;
            try {
              decided = await call(api, 'POST', '/Consumer/Authentication/AuthorizeDevice', admin, {
                RequestId: entry.created.Id,
                RequestGuid: entry.created.RequestGuid,
                ...entry.decision,
              });
            } catch {
              return;
            }
            if (decided.status !== 200)
              failures.push(`decision answered ${decided.status} ${JSON.stringify(decided.body)}`);
            else {
              entry.decisionAcked = true;
              totals.decisions += 1;
            }
          }
        };

        const workers = [
          ...Array.from({ length: STATUS_WORKERS }, (_, i) => statusWorker(i)),
          ...Array.from({ length: REQUEST_WORKERS }, (_, i) => requestWorker(i)),
        ];
        await sleep(150 + randomInt(1350));
        service.child.kill('SIGKILL');
        expect(await service.exited).toBe('SIGKILL');
        stopped = true;
        await Promise.all(workers);
        expect(failures).toEqual([]);

        checkSqliteIntegrity();
        service = await startService(env());
        const reader = await login(service.api, ADMIN);

        // A session acknowledged before the first kill still works: sign-ins are durable writes too.
        expect((await call(service.api, 'GET', '/Consumer/Authentication/Session', firstToken)).status).toBe(200);

        const storedUsers = PushMessageUserList.parse(
          (await call(service.api, 'GET', '/Consumer/PushMessageUsers', reader)).body,
        );
        const storedRequests = AuthorizationRequestList.parse(
          (await call(service.api, 'GET', '/Consumer/Authentication/AuthorizationRequests?getall=true', reader)).body,
        );
        const usersById = new Map(storedUsers.map((user) => [user.Id, user]));
        const requestsById = new Map(storedRequests.map((request) => [request.Id, request]));

        // 1. Every acknowledged status change is there, or a later one that was in flight at the kill.
        for (const entry of owned) {
          const stored = usersById.get(entry.acked.Id);
          const isAcked =
            stored?.Status === entry.acked.Status && stored.ModifiedTimestampUtc === entry.acked.ModifiedTimestampUtc;
          const isInFlight =
            entry.inFlight !== null &&
            stored?.Status === entry.inFlight &&
            stored.ModifiedTimestampUtc >= entry.acked.ModifiedTimestampUtc;
          expect(
            isAcked || isInFlight,
            `cycle ${cycle}: push user ${entry.acked.Id} is ${JSON.stringify(stored)}, acknowledged ${JSON.stringify(entry.acked)}, in flight ${entry.inFlight}`,
          ).toBe(true);
          if (stored) entry.acked = stored;
          if (entry.inFlight !== null) totals[isAcked ? 'inFlightLost' : 'inFlightCommitted'] += 1;
          entry.inFlight = null;
        }

        // 2. Every acknowledged request and decision is there, exactly as acknowledged.
        for (const entry of requests.values()) {
          const stored = requestsById.get(entry.created.Id);
          expect(stored, `cycle ${cycle}: acknowledged request ${entry.created.Id} is missing`).toBeDefined();
          if (!stored) continue;
          expect(asCreated(stored)).toEqual(asCreated(entry.created));
          const { Status, Comment, DecidedBy } = stored;
          const outcome = entry.decision ? (entry.decision.Authorized ? 'Authorized' : 'Rejected') : null;
          if (entry.decisionAcked) {
            expect({ Status, Comment, DecidedBy }).toEqual({
              Status: outcome,
              Comment: entry.decision?.Comment,
              DecidedBy: ADMIN[0],
            });
          } else if (Status !== 'Pending') {
            // The decision was in flight and committed before the kill: it must be that decision, whole.
            expect({ Status, Comment, DecidedBy }).toEqual({
              Status: outcome,
              Comment: entry.decision?.Comment,
              DecidedBy: ADMIN[0],
            });
            entry.decisionAcked = true;
          }
        }

        // 3. Nothing half-written, acknowledged or not: decisions with their push user, and the other way round.
        for (const request of storedRequests) {
          if (request.Status === 'Pending') {
            expect([request.Comment, request.DecidedBy, request.DecidedTimestampUtc]).toEqual([null, null, null]);
            continue;
          }
          expect(request.DecidedBy).toBeTruthy();
          expect(request.DecidedTimestampUtc).toBe(request.ModifiedTimestampUtc);
          const devices = storedUsers.filter(
            (user) => user.UserName === request.UserName && user.DeviceType === request.DeviceType,
          );
          if (request.Status === 'Authorized') {
            expect(devices, `cycle ${cycle}: authorized request ${request.Id} has no push user`).toHaveLength(1);
            if (request.UserName.startsWith('CRASH\\')) expect(devices[0]?.Status).toBe(1);
          } else if (request.UserName.startsWith('CRASH\\')) {
            expect(devices, `cycle ${cycle}: rejected request ${request.Id} registered a device`).toHaveLength(0);
          }
        }
        for (const user of storedUsers.filter((candidate) => candidate.UserName.startsWith('CRASH\\'))) {
          const authorized = storedRequests.filter(
            (request) =>
              request.UserName === user.UserName &&
              request.DeviceType === user.DeviceType &&
              request.Status === 'Authorized',
          );
          expect(authorized, `cycle ${cycle}: push user ${user.Id} without an authorized request`).toHaveLength(1);
        }
      }

      console.info(
        `crash: ${KILL_CYCLES} SIGKILL cycles survived (${POSTGRES_SERVER ? 'PostgreSQL' : 'SQLite'}); acknowledged ` +
          `${totals.statusChanges} status changes, ${totals.created} request creations, ${totals.decisions} decisions; ` +
          `writes in flight at a kill: ${totals.inFlightCommitted} committed, ${totals.inFlightLost} not`,
      );
      expect(totals.statusChanges + totals.created + totals.decisions).toBeGreaterThan(KILL_CYCLES * 5);
    },
    60_000 + KILL_CYCLES * 20_000,
  );

  it('on SIGTERM finishes the requests in flight, keeps their writes, and exits 0', async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    // A realistic password cost: each sign-in is real work the shutdown has to wait for.
    service = await startService(env({ PASSWORD_HASH_COST: '32768' }));
    const { api } = service;
    const admin = await login(api, ADMIN);
    const users = PushMessageUserList.parse((await call(api, 'GET', '/Consumer/PushMessageUsers', admin)).body);
    // Warm connections, so the requests below reach the server at once.
    await Promise.all(Array.from({ length: 16 }, () => call(api, 'GET', '/Consumer/Version')));

    const answeredAt: number[] = [];
    // A request the shutdown dropped shows as status 0 with the client's error, instead of failing the test early.
    const track = (promise: Promise<Answer>) =>
      promise.then(
        (answer) => {
          answeredAt.push(performance.now());
          return answer;
        },
        (error: Error) => ({ status: 0, body: `${error.message}: ${String(error.cause)}` }),
      );
    const signIns = Array.from({ length: 6 }, () =>
      track(call(api, 'POST', '/Consumer/Authentication', undefined, { UserName: HELPDESK[0], Password: HELPDESK[1] })),
    );
    const changes = users.slice(0, 6).map((user, i) => {
      const status = (1 + ((user.Status + i) % 3)) as PushUserStatus;
      return track(call(api, 'PUT', '/Consumer/PushMessageUsers', admin, { Id: user.Id, Status: status }));
    });
    const creations = Array.from({ length: 4 }, (_, i) =>
      track(call(api, 'POST', '/Demo/AuthorizationRequests', admin, { UserName: `TERM\\device-${i}` })),
    );
    await sleep(40);
    const signalledAt = performance.now();
    service.child.kill('SIGTERM');

    const [signInAnswers, changeAnswers, creationAnswers] = await Promise.all([
      Promise.all(signIns),
      Promise.all(changes),
      Promise.all(creations),
    ]);
    expect(signInAnswers.map((answer) => answer.status)).toEqual(signIns.map(() => 200));
    expect(changeAnswers.map((answer) => answer.status)).toEqual(changes.map(() => 200));
    expect(creationAnswers.map((answer) => answer.status)).toEqual(creations.map(() => 201));
    expect(await service.exited, service.output()).toBe(0);
    // The test proves something only if the shutdown really had requests to wait for.
    expect(answeredAt.filter((time) => time > signalledAt).length).toBeGreaterThan(0);

    service = await startService(env());
    const reader = await login(service.api, ADMIN);
    for (const answer of changeAnswers) {
      const acked = PushMessageUser.parse(answer.body);
      // One push user's answer also says which device it is (PushMessageUserDetail): the acknowledged fields match.
      const stored = PushMessageUserDetail.parse(
        (await call(service.api, 'GET', `/Consumer/PushMessageUsers/${acked.Id}`, reader)).body,
      );
      expect(PushMessageUser.parse(stored)).toEqual(acked);
    }
    for (const answer of creationAnswers) {
      const acked = AuthorizationRequest.parse(answer.body);
      const stored = await call(
        service.api,
        'GET',
        `/Consumer/Authentication/AuthorizationRequests/${acked.Id}`,
        reader,
      );
      expect(stored.body).toEqual(acked);
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 60_000);
});
