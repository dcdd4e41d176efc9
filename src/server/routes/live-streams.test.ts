import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountList, BACKGROUND_REQUEST_HEADER, MAX_STREAMS_PER_SESSION } from '../../shared/contract/index.ts';
import type { Config } from '../config.ts';
import { SessionService } from '../domain/authentication/sessions.ts';
import { ADMIN, AUDITOR, createTestApp, HELPDESK, parseBody, type TestApp } from '../test/harness.ts';
import { streamEnds } from '../test/stream-ends.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * Live streams cost a connection and a subscriber each, for as long as they stay open, and sessions are free: the
 * caps are per account and per process, not only per session. Streams learn from the change feed that their
 * session ended (sign-out, account disabled, password or permissions changed) instead of each reading its session
 * every couple of seconds.
 */
const EVENTS = '/api/Consumer/Events';
const POSTGRES = testDatabaseServer() !== null;

const apps: TestApp[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const app of apps.splice(0).reverse()) await app.close();
});

async function listening(overrides: Partial<Config> = {}): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp(overrides);
  apps.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

const request = (base: string, token: string) =>
  fetch(`${base}${EVENTS}`, { headers: { authorization: `Bearer ${token}`, [BACKGROUND_REQUEST_HEADER]: '1' } });

async function open(base: string, token: string): Promise<ReadableStream<Uint8Array>> {
  const response = await request(base, token);
  expect(response.status).toBe(200);
  if (!response.body) throw new Error('no stream');
  return response.body;
}

async function refused(base: string, token: string): Promise<string> {
  const response = await request(base, token);
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('retry-after')).toBe('30');
  return (await response.json()).detail as string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function accountId(t: TestApp, admin: string, userName: string): Promise<number> {
  const list = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
  const account = list.find((candidate) => candidate.UserName === userName);
  if (!account) throw new Error(`no account ${userName}`);
  return account.Id;
}

/** Disables an account through `t` as `admin`; resolves with the moment the change was asked for. */
async function disableAccount(t: TestApp, admin: string, userName: string): Promise<number> {
  const id = await accountId(t, admin, userName);
  const since = performance.now();
  const disabled = await t.call({
    method: 'PUT',
    url: `/api/Admin/Accounts/${id}/Enabled`,
    token: admin,
    payload: { Enabled: false },
  });
  expect(disabled.statusCode, disabled.body).toBe(200);
  return since;
}

describe('caps on live streams', () => {
  it('refuses the eleventh stream of one account, whichever session asks', async () => {
    const { t, base } = await listening();
    expect(t.config.liveStreamsPerAccount).toBe(10);
    const [first, second, third] = [await t.login(...HELPDESK), await t.login(...HELPDESK), await t.login(...HELPDESK)];
    const streams: ReadableStream<Uint8Array>[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i += 1) streams.push(await open(base, first));
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i += 1) streams.push(await open(base, second));
    expect(await refused(base, third)).toMatch(/account already has 10 live streams/);
    // Other accounts are not affected; closing one of the account's streams frees a place.
    streams.push(await open(base, await t.login(...AUDITOR)));
    await streams.shift()?.cancel();
    await sleep(200);
    streams.push(await open(base, third));
    for (const stream of streams) await stream.cancel();
  });

  it('refuses streams beyond the configured number for the process, whoever asks', async () => {
    const { t, base } = await listening({ liveStreamsPerProcess: 3 });
    const helpdesk = await t.login(...HELPDESK);
    const streams = [await open(base, helpdesk), await open(base, helpdesk), await open(base, await t.login(...ADMIN))];
    expect(await refused(base, await t.login(...AUDITOR))).toMatch(/service has 3 live streams open/);
    await streams.shift()?.cancel();
    await sleep(200);
    streams.push(await open(base, await t.login(...AUDITOR)));
    for (const stream of streams) await stream.cancel();
  });
});

describe('streams learn of ended sessions from the change feed', () => {
  it('do not read their session while nothing happens', async () => {
    const { t, base } = await listening();
    const token = await t.login(...HELPDESK);
    const streams = [await open(base, token), await open(base, token), await open(base, token)];
    const checks = vi.spyOn(SessionService.prototype, 'authenticate');
    await sleep(4_500);
    expect(checks).not.toHaveBeenCalled();
    for (const stream of streams) await stream.cancel();
  }, 10_000);

  it('end at once when the session signs out', async () => {
    const { t, base } = await listening();
    const token = await t.login(...HELPDESK);
    const other = await open(base, await t.login(...HELPDESK));
    const body = await open(base, token);
    const since = performance.now();
    const out = await t.call({ method: 'DELETE', url: '/api/Consumer/Authentication/Session', token });
    expect(out.statusCode).toBe(204);
    const ended = await streamEnds(body, since);
    console.info(`live stream: ended ${ended.toFixed(0)} ms after sign-out`);
    expect(ended).toBeLessThan(1_000);
    // The account's other session keeps its stream.
    expect(await streamEnds(other, performance.now(), 500)).toBeGreaterThanOrEqual(500);
  });

  it('end at once when the account is disabled', async () => {
    const { t, base } = await listening();
    const admin = await t.login(...ADMIN);
    const body = await open(base, await t.login(...HELPDESK));
    const since = await disableAccount(t, admin, HELPDESK[0]);
    const ended = await streamEnds(body, since);
    console.info(`live stream: ended ${ended.toFixed(0)} ms after the account was disabled`);
    expect(ended).toBeLessThan(1_000);
  });

  it.skipIf(!POSTGRES)(
    'end at once when the account is disabled through another process (NOTIFY)',
    async () => {
      const { t, base } = await listening();
      const second = await createTestApp({ databaseUrl: t.config.databaseUrl });
      apps.push(second);
      const body = await open(base, await t.login(...HELPDESK));
      const admin = await second.login(...ADMIN);
      const since = await disableAccount(second, admin, HELPDESK[0]);
      const ended = await streamEnds(body, since);
      console.info(
        `live stream: ended ${ended.toFixed(0)} ms after the account was disabled through another process (NOTIFY)`,
      );
      expect(ended).toBeLessThan(1_000);
    },
    20_000,
  );
});
