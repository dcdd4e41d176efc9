import { describe, expect, it } from 'vitest';
import { LoginResult } from '../../../shared/contract/index.ts';
import { upsertPrincipal } from '../../domain/identity/principals.ts';
import { issueTemporaryCode } from '../../domain/two-factor/temporary-codes.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { expectProblem, parseBody, useTestApp } from '../../test/harness.ts';

const PERSON = ['ACME\\dana', 'Quiet lantern harbour 42'] as const;

describe('a temporary code as the second step of sign-in', () => {
  const lines = new AuditLines();
  const { t } = useTestApp({ config: { secondFactor: 'writers', stepUpMinutes: 15 }, options: { auditSink: lines } });

  /** Dana administers accounts and has no second factor left; the helpdesk's code is all she holds. */
  async function danaWithACode(uses = 1) {
    await upsertPrincipal(
      t.database.db,
      {
        userName: PERSON[0],
        password: PERSON[1],
        grants: [
          { entity: 'Accounts', permission: 'Read' },
          { entity: 'Accounts', permission: 'Write' },
        ],
        now: t.clock.now(),
      },
      1024,
    );
    const { id } = await t.database.db
      .selectFrom('principals')
      .select('id')
      .where('user_key', '=', 'acme\\dana')
      .executeTakeFirstOrThrow();
    const { code } = await issueTemporaryCode({
      db: t.database.db,
      clock: t.clock.now,
      changes: null,
      hashCost: 1024,
      account: { id, userName: PERSON[0] },
      request: { ValidMinutes: 60, Uses: uses },
      issuedBy: 'DEMO\\admin',
    });
    return code.Code;
  }
  const password = () =>
    t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: PERSON[0], Password: PERSON[1] },
    });
  const ticketOf = async () => {
    const asked = expectProblem(await password(), 401, 'second-factor-required');
    return String(asked.ticket);
  };
  const second = (Ticket: string, Code: string) =>
    t.call({ method: 'POST', url: '/api/Consumer/Authentication/TemporaryCode', payload: { Ticket, Code } });

  it('is asked for when it is all the person holds, and lets them in, but never counts as a step-up', async () => {
    const code = await danaWithACode();
    const signedIn = await second(await ticketOf(), code);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { Token } = parseBody(signedIn, LoginResult);
    expect(lines.of('temporary-code-used').at(-1)?.event.outcome).toBe('success');
    // The session may add a first passkey…
    const options = await t.call({ method: 'POST', url: '/api/Admin/Accounts/Me/Passkeys/Options', token: Token });
    expect(options.statusCode, options.body).toBe(200);
    // …and reach the service, but no step-up action: the temporary code proves nobody for those.
    expect((await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: Token })).statusCode).toBe(200);
    expectProblem(await t.call({ method: 'GET', url: '/api/Admin/Backup', token: Token }), 403, 'step-up-required');
    // Issuing a temporary code is a step-up action: one temporary code never begets another.
    expectProblem(
      await t.call({
        method: 'POST',
        url: `/api/People/${encodeURIComponent('DEMO\\operator')}/TemporaryCodes`,
        token: Token,
        payload: {},
      }),
      403,
      'step-up-required',
    );
    const stepUp = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication/StepUp',
      token: Token,
      payload: { DeviceCode: code },
    });
    expect(stepUp.statusCode).not.toBe(200);
    // Used once: the next sign-in has no second step left but a fresh enrolment.
    const again = await password();
    expect(again.statusCode).toBe(200);
  });

  it('refuses a wrong code in words, and a missing or malformed one', async () => {
    await danaWithACode();
    const ticket = await ticketOf();
    const refused = expectProblem(await second(ticket, '0000 0000 0000'), 401, 'temporary-code-invalid');
    expect(refused.detail).toContain('helpdesk');
    expect(lines.of('temporary-code-used').at(-1)?.event.outcome).toBe('failure');
    expectProblem(await second(ticket, ''), 400, 'validation');
    expectProblem(await second('', '1234'), 400, 'validation');
    expectProblem(await second('no-such-ticket', '1234 5678 9012'), 401, 'ticket-invalid');
  });
});
