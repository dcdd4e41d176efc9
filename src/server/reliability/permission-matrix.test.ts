import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  availability,
  CreatedAccount,
  type Endpoint,
  type EndpointName,
  endpointPath,
  endpoints,
  Problem,
  SUPPORTED_VERSIONS,
} from '../../shared/contract/index.ts';
import { upsertPrincipal } from '../domain/identity/principals.ts';
import { decide, enrollDevice } from '../test/device-helpers.ts';
import { ADMIN, AUDITOR, HELPDESK, OPERATOR, parseBody, type TestApp, useTestApp } from '../test/harness.ts';
import {
  type Answer,
  CALLERS,
  type Caller,
  expectedAnswer,
  MATRIX_END,
  MATRIX_START,
  matrixTable,
} from '../test/permission-matrix.ts';

const PASSWORD = 'Quiet lantern harbour 42';
/** Refusals by the access rule, as against anything the endpoint itself answers once let through. */
const REFUSED_KINDS = new Set(['unauthenticated', 'forbidden', 'second-factor-enrolment-required']);

/** What undoes the callers' own set-up goes last: the device's removal, the demo's reset. */
const LAST: readonly EndpointName[] = ['removeDevice', 'demoReset'];
const ORDERED = (Object.keys(endpoints) as EndpointName[]).sort((a, b) => LAST.indexOf(a) - LAST.indexOf(b));

/** A fresh credential of the caller for each cell, so that a sign-out in one cell never answers for the next. */
async function credentialsOf(t: TestApp, caller: Caller): Promise<() => Promise<Record<string, string>>> {
  const session = (userName: string, password: string) => async () => ({
    authorization: `Bearer ${await t.login(userName, password)}`,
  });
  switch (caller.name) {
    case 'none':
      return async () => ({});
    case 'reader':
      return session(...AUDITOR);
    case 'operator':
      return session(...OPERATOR);
    case 'helpdesk':
      return session(...HELPDESK);
    case 'device': {
      const phone = await enrollDevice(t, { token: await t.login(...OPERATOR) });
      await decide(t, await t.login(...ADMIN), phone);
      return async () => ({ authorization: `Device ${phone.DeviceToken}` });
    }
    case 'api': {
      const created = await t.call({
        method: 'POST',
        url: '/api/Admin/Accounts',
        token: await t.login(...ADMIN),
        payload: {
          UserName: 'MATRIX\\script',
          Kind: 'Api',
          Permissions: { Security: ['Read', 'Write'], Accounts: [] },
        },
      });
      const secret = parseBody(created, CreatedAccount).Secret as string;
      return session('MATRIX\\script', secret);
    }
    default: {
      const userName = `MATRIX\\${caller.name}`;
      const grants = [
        ...caller.security.map((permission) => ({ entity: 'Security', permission: permission as 'Read' | 'Write' })),
        ...caller.accounts.map((permission) => ({ entity: 'Accounts', permission: permission as 'Read' | 'Write' })),
      ];
      await upsertPrincipal(t.database.db, { userName, password: PASSWORD, grants, now: t.clock.now() }, 1024);
      const signIn = session(userName, PASSWORD);
      // The enrolment-only session may add recovery codes (one cell does): they go, so the next sign-in is one again.
      return async () => {
        await t.database.db.deleteFrom('recovery_codes').execute();
        return signIn();
      };
    }
  }
}

/** Calls one cell: an unknown id or person and an empty body, so that what is let through changes nothing. */
async function answerOf(t: TestApp, endpoint: Endpoint, headers: Record<string, string>, origin: string | null) {
  const version = availability(endpoint, SUPPORTED_VERSIONS[0]).versions.at(-1) as string;
  const url = `/api${endpointPath(endpoint, { id: 999999, userName: 'MATRIX\\nobody' })}`;
  const withBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
  if (endpoint.eventStream && origin) {
    // A stream let through never ends: its status is read from the headers, then the request is dropped.
    const controller = new AbortController();
    const response = await fetch(`${origin}${url}`, {
      headers: { ...headers, 'api-version': version },
      signal: controller.signal,
    });
    const kind = response.ok ? null : (Problem.parse(await response.json()).ErrorCode ?? null);
    controller.abort();
    return { status: response.status, kind };
  }
  const response = await t.call({
    method: endpoint.method,
    url,
    version,
    headers,
    ...(withBody ? { payload: {} } : {}),
  });
  const kind = String(response.headers['content-type'] ?? '').startsWith('application/problem+json')
    ? (response.json<{ ErrorCode?: string }>().ErrorCode ?? null)
    : null;
  return { status: response.statusCode, kind };
}

function verdict({ status, kind }: { status: number; kind: string | null }): Answer | 'pass' {
  if ((status === 401 || status === 403) && kind !== null && REFUSED_KINDS.has(kind)) return status;
  return 'pass';
}

describe('the permission matrix', () => {
  it('docs/security.md shows it as generated from the contract (a new endpoint needs its row there)', () => {
    const doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const start = doc.indexOf(MATRIX_START);
    const end = doc.indexOf(MATRIX_END);
    expect(start, 'the matrix markers in docs/security.md').toBeGreaterThan(-1);
    const table = doc.slice(start + MATRIX_START.length, end).trim();
    expect(
      table,
      'regenerate with: npx tsx -e "import(\'./src/server/test/permission-matrix.ts\').then(m => console.log(m.matrixTable()))"',
    ).toBe(matrixTable());
  });

  for (const caller of CALLERS) {
    describe(caller.label, () => {
      // The enrolment-only session exists only under a second-factor policy; the rest run with it off, as the demo does.
      const { t } = useTestApp(caller.enrolmentOnly ? { config: { secondFactor: 'writers' } } : {});

      it('answers every endpoint as the matrix says', async () => {
        const credentials = await credentialsOf(t, caller);
        let origin: string | null = null;
        if (ORDERED.some((name) => (endpoints[name] as Endpoint).eventStream)) {
          await t.app.listen({ port: 0, host: '127.0.0.1' });
          origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
        }
        const wrong: string[] = [];
        for (const name of ORDERED) {
          const endpoint: Endpoint = endpoints[name];
          const expected = expectedAnswer(endpoint, caller);
          const answer = await answerOf(t, endpoint, await credentials(), origin);
          const got = verdict(answer);
          if (got !== (expected === 'contain' ? 'pass' : expected)) {
            wrong.push(`${name}: expected ${expected}, got ${answer.status} ${answer.kind ?? ''}`);
          }
        }
        expect(wrong).toEqual([]);
      }, 120_000);
    });
  }
});
