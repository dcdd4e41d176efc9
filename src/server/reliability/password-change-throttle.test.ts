import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountHistoryList, AccountList } from '../../shared/contract/index.ts';
import { ADMIN, createTestApp, expectProblem, HELPDESK, OPERATOR, parseBody, type TestApp } from '../test/harness.ts';

/**
 * Changing one's own password checks the current one with a full password hash. It is a sign-in in all but name:
 * wrong guesses count against the same budgets (and are recorded), and one account cannot make the hashing pool
 * so busy that other people's sign-ins wait.
 */
const CHANGE = '/api/Admin/Accounts/Me/Password';
const LOGIN = '/api/Consumer/Authentication';
const NEW_PASSWORD = 'quiet orchard telescope 7';
/** A realistic cost (the production default is 2^15): what makes a flood of checks expensive. */
const REALISTIC_HASH_COST = 2 ** 14;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const change = (token: string, oldPassword: string) =>
  t.call({ method: 'POST', url: CHANGE, token, payload: { OldPassword: oldPassword, NewPassword: NEW_PASSWORD } });

const signIn = ([UserName, Password]: readonly [string, string]) =>
  t.call({ method: 'POST', url: LOGIN, payload: { UserName, Password } });

async function historyOf(userName: string) {
  const admin = await t.login(...ADMIN);
  const accounts = parseBody(await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin }), AccountList);
  const account = accounts.find((candidate) => candidate.UserName === userName);
  if (!account) throw new Error(`no account ${userName}`);
  const response = await t.call({ method: 'GET', url: `/api/Admin/Accounts/${account.Id}/History`, token: admin });
  return parseBody(response, AccountHistoryList);
}

describe('a wrong current password is a failed sign-in', () => {
  it('refuses the sixth wrong guess with 429 and Retry-After, and records each wrong one', async () => {
    t = await createTestApp();
    const token = await t.login(...OPERATOR);
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 6; i += 1) answers.push(await change(token, `wrong guess ${i}`));
    expect(answers.map((answer) => answer.statusCode)).toEqual([422, 422, 422, 422, 422, 429]);
    const refused = expectProblem(answers[5] as LightMyRequestResponse, 429, 'too-many-requests');
    expect(refused.detail).toMatch(/Try again in \d+ seconds/);
    expect(Number(answers[5]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Locked as a sign-in is: the right current password waits too, and so does signing in from this address.
    expectProblem(await change(token, OPERATOR[1]), 429, 'too-many-requests');
    expectProblem(await signIn(OPERATOR), 429, 'too-many-requests');

    const failed = (await historyOf(OPERATOR[0])).filter((entry) => entry.Action === 'PasswordChangeFailed');
    expect(failed).toHaveLength(5);
    expect(failed[0]).toMatchObject({ UserName: OPERATOR[0], ClientAddress: '127.0.0.1', ChangedBy: OPERATOR[0] });
  });

  it('shares the budget with sign-in: failed sign-ins before count too', async () => {
    t = await createTestApp({ loginFailuresPerUser: 3 });
    const token = await t.login(...OPERATOR);
    for (let i = 0; i < 2; i += 1) expect((await signIn([OPERATOR[0], `wrong guess ${i}`])).statusCode).toBe(401);
    expect((await change(token, 'wrong guess 2')).statusCode).toBe(422);
    expectProblem(await change(token, 'wrong guess 3'), 429, 'too-many-requests');
  });
});

describe('a flood of password changes from one account', () => {
  const FLOOD = 100;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const timedSignIn = async () => {
    const started = performance.now();
    const response = await signIn(HELPDESK);
    expect(response.statusCode, response.body).toBe(200);
    return performance.now() - started;
  };

  it(`does not hold up another person's sign-in (${FLOOD} parallel wrong guesses, scrypt N=2^14)`, async () => {
    t = await createTestApp({ passwordHashCost: REALISTIC_HASH_COST });
    const token = await t.login(...OPERATOR);
    const baseline = median([await timedSignIn(), await timedSignIn(), await timedSignIn()]);

    const flood = Promise.all(Array.from({ length: FLOOD }, (_, i) => change(token, `wrong guess ${i}`)));
    // Once the flood is under way, someone else signs in.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const during = await timedSignIn();
    const statuses = (await flood).map((answer) => answer.statusCode);
    console.info(
      `password-change flood: another person's sign-in took ${during.toFixed(0)} ms during it, ` +
        `${baseline.toFixed(0)} ms alone (median of 3); flood answers: ${statuses.filter((s) => s === 422).length}×422, ` +
        `${statuses.filter((s) => s === 429).length}×429`,
    );
    // Five hashes were tried (the budget), the rest refused before hashing.
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(FLOOD - 5);
    // At most the hash in flight ahead of it: a few hundred milliseconds over its time alone, on a loaded machine.
    expect(during).toBeLessThan(baseline + 500);
  }, 60_000);
});
