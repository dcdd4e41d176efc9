import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginResult, PasskeyOptions } from '../../../shared/contract/index.ts';
import { ADMIN, createTestApp, expectProblem, parseBody, type TestApp } from '../../test/harness.ts';

/**
 * The first administrator opens the dashboard at the IP address the service listens on, while passkeys belong to
 * PUBLIC_URL's address (localhost): each passkey ceremony says where to go instead of the browser's "invalid domain".
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ secondFactor: 'writers', publicUrl: 'http://localhost:3000' });
});
afterEach(() => t.close());

const post = (url: string, origin: string | null, token?: string) =>
  t.call({
    method: 'POST',
    url,
    payload: {},
    headers: origin ? { origin, host: new URL(origin).host } : {},
    ...(token ? { token } : {}),
  });

async function enrolmentSession(): Promise<string> {
  const response = await t.call({
    method: 'POST',
    url: '/api/Consumer/Authentication',
    payload: { UserName: ADMIN[0], Password: ADMIN[1] },
  });
  return parseBody(response, LoginResult).Token;
}

describe('passkeys at another address than PUBLIC_URL', () => {
  it('adding a passkey from http://127.0.0.1:3000 names http://localhost:3000 instead', async () => {
    const token = await enrolmentSession();
    const problem = expectProblem(
      await post('/api/Admin/Accounts/Me/Passkeys/Options', 'http://127.0.0.1:3000', token),
      409,
      'passkeys-unavailable',
    );
    expect(problem.detail).toBe(
      'Passkeys work only at http://localhost:3000, the address this service is set up for (PUBLIC_URL), not at ' +
        'http://127.0.0.1:3000. Open http://localhost:3000/ and sign in there.',
    );
    // From PUBLIC_URL's own address, and from a script that sends no Origin, the options come.
    for (const origin of ['http://localhost:3000', null]) {
      const answer = await post('/api/Admin/Accounts/Me/Passkeys/Options', origin, token);
      expect(answer.statusCode, answer.body).toBe(200);
      parseBody(answer, PasskeyOptions);
    }
  });

  it('signing in with a passkey from the IP address says the same', async () => {
    const problem = expectProblem(
      await post('/api/Consumer/Authentication/Passkey/Options', 'http://127.0.0.1:3000'),
      409,
      'passkeys-unavailable',
    );
    expect(problem.detail).toContain('Open http://localhost:3000/');
    expect((await post('/api/Consumer/Authentication/Passkey/Options', 'http://localhost:3000')).statusCode).toBe(200);
  });
});
