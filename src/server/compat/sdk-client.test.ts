import { beforeAll, describe, expect, it } from 'vitest';
import { CreatedAccount } from '../../shared/contract/index.ts';
import { ADMIN, OPERATOR, parseBody, useTestApp } from '../test/harness.ts';

type Json = Record<string, unknown>;

/** Reads a member the way the SDK's deserializer does: names match case-insensitively. */
function member(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  const key = Object.keys(value).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (value as Json)[key];
}

interface Answer {
  status: number;
  body: unknown;
  version: string | null;
  /** Whether the first try was refused with a Basic challenge and the call was made again with credentials. */
  challenged: boolean;
}

/**
 * A client that behaves like the published .NET consumer SDK in its "explicit credentials" mode: configured
 * with the server's address only, a new HTTP client per call, the connector's `Consumer/v3.2/` root, the
 * consumer name header, no token ever; credentials are sent only in answer to a Basic challenge.
 */
class SdkLikeConnector {
  private readonly server: string;
  private readonly userName: string;
  private readonly password: string;

  constructor(server: string, userName: string, password: string) {
    this.server = server;
    this.userName = userName;
    this.password = password;
  }

  async call(method: string, relative: string, body?: unknown): Promise<Answer> {
    const url = `${this.server}/Consumer/v3.2/${relative}`;
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Tachyon-Consumer': 'SdkLikeClient' };
    if (body !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
    const send = (extra: Record<string, string> = {}) =>
      fetch(url, {
        method,
        headers: { ...headers, ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let response = await send();
    let challenged = false;
    // Only a Basic challenge is answered (a failed sign-in is a 401 without one, and is final).
    const offered = response.headers.get('www-authenticate') ?? '';
    if (response.status === 401 && /(^|,\s*)Basic\s+realm="Tachyon"/i.test(offered)) {
      await response.arrayBuffer();
      challenged = true;
      const credentials = Buffer.from(`${this.userName}:${this.password}`, 'utf8').toString('base64');
      response = await send({ Authorization: `Basic ${credentials}` });
    }
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? undefined : JSON.parse(text),
      version: response.headers.get('api-version'),
      challenged,
    };
  }
}

describe('a client that mimics the published .NET SDK, end to end over HTTP (SPEC §3)', () => {
  const { t } = useTestApp({ per: 'file' });
  let server: string;
  /** The account scripts and the SDK are given: an API account, whose secret the service generated. */
  let apiAccount: readonly [string, string] = ['', ''];
  beforeAll(async () => {
    server = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const created = parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: await t.login(...ADMIN),
        payload: { UserName: 'SVC\\sdk', Kind: 'Api', Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
      }),
      CreatedAccount,
    );
    apiAccount = [created.UserName, created.Secret as string];
  });
  const callers = [
    ['a person', () => ADMIN],
    ['an API account', () => apiAccount],
  ] as const;

  it.each(callers)(
    'lists, reads and decides with only the server address and the user name and password of %s',
    async (_, credentials) => {
      const sdk = new SdkLikeConnector(server, ...credentials());

      const users = await sdk.call('GET', 'PushMessageUsers');
      expect(users).toMatchObject({ status: 200, version: '3.2', challenged: true });
      expect(Array.isArray(users.body)).toBe(true);
      const first = (users.body as unknown[])[0];
      for (const name of ['Id', 'UserName', 'DeviceType', 'Status', 'Manufacturer', 'Model', 'OsVersion']) {
        expect(Object.keys(first as Json).map((key) => key.toLowerCase())).toContain(name.toLowerCase());
      }

      const pending = await sdk.call('GET', 'Authentication/AuthorizationRequests?getAll=false');
      expect(pending.status).toBe(200);
      const request = (pending.body as unknown[])[0];
      const decided = await sdk.call('POST', 'Authentication/AuthorizeDevice', {
        requestId: member(request, 'Id'),
        requestGuid: member(request, 'RequestGuid'),
        authorized: true,
      });
      expect(decided.status).toBe(200);
      expect(member(decided.body, 'Status')).toBe('Authorized');

      const registered = await sdk.call('GET', 'PushMessageUsers');
      const device = (registered.body as unknown[]).find(
        (user) =>
          member(user, 'UserName') === member(request, 'UserName') &&
          member(user, 'DeviceType') === member(request, 'DeviceType'),
      );
      expect(member(device, 'Manufacturer')).toBe(member(request, 'Manufacturer'));
      expect(member(device, 'Model')).toBe(member(request, 'Model'));
      expect(member(device, 'OsVersion')).toBe(member(request, 'OsVersion'));

      const disabled = await sdk.call('PUT', 'PushMessageUsers', { id: member(device, 'Id'), status: 2 });
      expect(disabled.status).toBe(200);
      expect(member(disabled.body, 'Status')).toBe(2);
    },
  );

  it.each(callers)('reads Message and ErrorCode from errors, as %s', async (_, credentials) => {
    const [userName, password] = credentials();
    const sdk = new SdkLikeConnector(server, userName, password);
    const missing = await sdk.call('GET', 'PushMessageUsers/987654');
    expect(missing.status).toBe(404);
    expect(member(missing.body, 'ErrorCode')).toBe('not-found');
    expect(member(missing.body, 'Message')).toMatch(/987654/);

    const wrongPassword = await new SdkLikeConnector(server, userName, 'not-it').call('GET', 'PushMessageUsers');
    expect(wrongPassword).toMatchObject({ status: 401, challenged: true });
    expect(member(wrongPassword.body, 'ErrorCode')).toBe('invalid-credentials');
    expect(member(wrongPassword.body, 'Message')).toBe('The user name or password is incorrect.');
  });

  it('signs in as an API account with its secret, reading Successful', async () => {
    const [userName, secret] = apiAccount;
    const sdk = new SdkLikeConnector(server, userName, secret);
    const signIn = await sdk.call('POST', 'Authentication', { userName, password: secret });
    expect(signIn).toMatchObject({ status: 200, challenged: false });
    expect(member(signIn.body, 'Successful')).toBe(true);
    expect(member(signIn.body, 'Token')).toEqual(expect.any(String));
    const failed = await sdk.call('POST', 'Authentication', { userName, password: 'tcs_not-the-secret' });
    expect(failed.status).toBe(401);
    expect(member(failed.body, 'Message')).toBe('The user name or password is incorrect.');
  });

  it('signs in and submits two-factor tokens, reading Successful', async () => {
    const sdk = new SdkLikeConnector(server, ...OPERATOR);
    const signIn = await sdk.call('POST', 'Authentication', { userName: OPERATOR[0], password: OPERATOR[1] });
    expect(signIn).toMatchObject({ status: 200, challenged: false });
    expect(member(signIn.body, 'Successful')).toBe(true);
    const failed = await sdk.call('POST', 'Authentication', { userName: OPERATOR[0], password: 'wrong' });
    expect(failed.status).toBe(401);
    expect(member(failed.body, 'Successful')).not.toBe(true);
    expect(member(failed.body, 'Message')).toBe('The user name or password is incorrect.');

    // The operator's instruction and the token pushed to their phone (demo actors, under /api).
    const basic = `Basic ${Buffer.from(`${OPERATOR[0]}:${OPERATOR[1]}`).toString('base64')}`;
    const demo = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server}/api/Demo/${path}`, {
        method,
        headers: { Authorization: basic, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await response.json()) as Json & Json[];
    };
    for (const [relative, scheduled, idName] of [
      ['Authentication/Token', false, 'InstructionId'],
      ['Authentication/Instruction/Token', false, 'Id'],
      ['Authentication/ScheduledInstruction/Token', true, 'Id'],
    ] as const) {
      const instruction = await demo('POST', 'Instructions', { Scheduled: scheduled });
      const pushes = await demo('GET', 'Pushes');
      const push = pushes.find((item) => item.InstructionId === instruction.Id && item.Scheduled === scheduled);
      const answer = await sdk.call('POST', relative, { [idName]: instruction.Id, Token: push?.Token });
      expect(answer.status, relative).toBe(200);
      expect(member(answer.body, 'Successful'), relative).toBe(true);
      expect(member(answer.body, 'Authenticated'), relative).toBe(true);
    }
  });
});
