import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { KNOWN_CLIENT_DAYS, KnownClients } from '../domain/authentication/throttle/known-clients.ts';
import { createTestApp, expectProblem, HELPDESK, restartApp, secondProcess, type TestApp } from '../test/harness.ts';
import { testDatabaseServer } from '../test/test-database.ts';

/**
 * A distributed guesser paces a user name for everyone (one attempt per LOGIN_SLOW_SECONDS from all addresses): that
 * slows guessing, but the attacker's attempts took the one slot, so the owner was refused too. The owner's own
 * addresses (where the account signed in recently) are exempt from the name-wide pace; every other address is not.
 * Addresses come through a trusted proxy, as they do in a real deployment behind one.
 */
const LOGIN = '/api/Consumer/Authentication';
const SESSION = '/api/Consumer/Authentication/Session';
const POSTGRES = testDatabaseServer() !== null;
const PROXY = '10.0.0.1';
const OWNER_ADDRESS = '198.51.100.20';
const NEW_ADDRESS = '198.51.100.99';
const [USER, PASSWORD] = HELPDESK;
/** The defaults the attack was seen against: paced after 20 failures, one attempt per 5 s. */
const THROTTLE = { trustProxy: 1, loginSlowAfterFailures: 20, loginSlowSeconds: 5 } as const;

let t: TestApp;
const others: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of others.splice(0)) await app.close();
  await t?.close();
});

const from = (client: string) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': client } });
const signIn = (app: FastifyInstance, client: string, password: string) =>
  app.inject({ method: 'POST', url: LOGIN, payload: { UserName: USER, Password: password }, ...from(client) });
const basic = (app: FastifyInstance, client: string, password: string) =>
  app.inject({
    method: 'GET',
    url: SESSION,
    headers: {
      ...from(client).headers,
      authorization: `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`,
    },
    remoteAddress: PROXY,
  });

/** 60 addresses taking turns, each guessing a different wrong password. */
function attacker(app: FastifyInstance) {
  let next = 0;
  const statuses: number[] = [];
  const guess = async () => {
    const i = next++;
    const response = await signIn(app, `203.0.113.${i % 60}`, `guess-${i}`);
    statuses.push(response.statusCode);
    return response;
  };
  return { guess, statuses, realGuesses: () => statuses.filter((status) => status === 401).length };
}

/** Fails for the user name from many addresses until it is paced. */
async function paceTheName(attack: ReturnType<typeof attacker>): Promise<void> {
  for (let i = 0; i < 30; i += 1) {
    if ((await attack.guess()).statusCode === 429) return;
  }
  throw new Error('the user name was never paced');
}

const statusesOf = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode);

describe('the name-wide pace does not lock the owner out', () => {
  it('lets the owner in from a known address every time while 60 addresses keep the name paced', async () => {
    t = await createTestApp(THROTTLE);
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    const attack = attacker(t.app);
    const started = performance.now();
    await paceTheName(attack);

    const owner: LightMyRequestResponse[] = [];
    for (let round = 0; round < 20; round += 1) {
      // An attacker's attempt comes first, so the slot of the pace is taken whenever the owner arrives...
      await attack.guess();
      // ...and more keep arriving alongside the owner's.
      const [mine] = await Promise.all([
        signIn(t.app, OWNER_ADDRESS, PASSWORD),
        ...Array.from({ length: 9 }, () => attack.guess()),
      ]);
      owner.push(mine as LightMyRequestResponse);
    }
    expect(statusesOf(owner)).toEqual(owner.map(() => 200));

    // Anyone else, the owner on a new machine included, is still paced: the right password is refused.
    await attack.guess();
    const unknown = await signIn(t.app, NEW_ADDRESS, PASSWORD);
    expectProblem(unknown, 429, 'too-many-requests');
    expect(Number(unknown.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // The attackers tried no more passwords than before: the failures until the pace, then one per 5 s.
    const seconds = (performance.now() - started) / 1000;
    expect(attack.realGuesses()).toBeLessThanOrEqual(THROTTLE.loginSlowAfterFailures + 1 + Math.ceil(seconds / 5));
  }, 30_000);

  it('still holds the known address to its own budget of failures', async () => {
    t = await createTestApp({ ...THROTTLE, loginFailuresPerUser: 3 });
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await signIn(t.app, OWNER_ADDRESS, `guess-${i}`)).statusCode).toBe(401);
    expectProblem(await signIn(t.app, OWNER_ADDRESS, PASSWORD), 429, 'too-many-requests');
  });

  it(`forgets an address ${KNOWN_CLIENT_DAYS} days after its last successful sign-in`, async () => {
    t = await createTestApp(THROTTLE);
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    t.clock.advanceMinutes((KNOWN_CLIENT_DAYS - 1) * 24 * 60);
    const attack = attacker(t.app);
    await paceTheName(attack);
    await attack.guess();
    // Still known a day before it lapses; the sign-in makes it known for another 30 days.
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    t.clock.advanceMinutes((KNOWN_CLIENT_DAYS + 1) * 24 * 60);
    await attack.guess();
    expectProblem(await signIn(t.app, OWNER_ADDRESS, PASSWORD), 429, 'too-many-requests');
  }, 30_000);

  it('prunes the addresses that are no longer known', async () => {
    t = await createTestApp(THROTTLE);
    const known = new KnownClients(t.database.db, t.clock.now);
    await known.remember('demo\\a', '203.0.113.1');
    t.clock.advanceMinutes(24 * 60);
    await known.remember('demo\\b', '203.0.113.2');
    t.clock.advanceMinutes((KNOWN_CLIENT_DAYS - 1) * 24 * 60 + 1);
    expect(await known.prune()).toBe(1);
    const left = await t.database.db.selectFrom('known_clients').select(['user_key', 'client_key']).execute();
    expect(left).toEqual([{ user_key: 'demo\\b', client_key: '203.0.113.2' }]);
  });

  it('applies the same rule to HTTP Basic credentials', async () => {
    t = await createTestApp(THROTTLE);
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    const attack = attacker(t.app);
    await paceTheName(attack);
    // The unknown address first: a credential once verified is remembered for a minute, wherever it comes from.
    await attack.guess();
    expectProblem(await basic(t.app, NEW_ADDRESS, PASSWORD), 429, 'too-many-requests');
    await attack.guess();
    expect((await basic(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
  }, 30_000);

  it('remembers known addresses across a restart on the same database', async () => {
    t = await createTestApp(THROTTLE);
    expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    await t.app.close();
    const restarted = await restartApp(t);
    others.push(restarted);
    const attack = attacker(restarted);
    await paceTheName(attack);
    await attack.guess();
    expect((await signIn(restarted, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
    await attack.guess();
    expectProblem(await signIn(restarted, NEW_ADDRESS, PASSWORD), 429, 'too-many-requests');
  }, 30_000);

  it.skipIf(!POSTGRES)(
    'shares known addresses between processes on one PostgreSQL database',
    async () => {
      t = await createTestApp(THROTTLE);
      const second = await secondProcess(t);
      others.push(second);
      expect((await signIn(t.app, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
      const attack = attacker(second);
      await paceTheName(attack);
      await attack.guess();
      expect((await signIn(second, OWNER_ADDRESS, PASSWORD)).statusCode).toBe(200);
      await attack.guess();
      expectProblem(await signIn(t.app, NEW_ADDRESS, PASSWORD), 429, 'too-many-requests');
    },
    30_000,
  );
});
