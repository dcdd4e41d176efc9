import { describe, expect, it } from 'vitest';
import {
  Instruction,
  IssuedTemporaryCode,
  Person,
  TEMPORARY_CODE_DIGITS,
  TokenAccepted,
} from '../../../shared/contract/index.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import {
  ADMIN,
  DEMO_STAFF,
  errorPaths,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  useTestApp,
} from '../../test/harness.ts';

const codesUrl = (userName: string) => `/api/People/${encodeURIComponent(userName)}/TemporaryCodes`;

describe('temporary codes', () => {
  const lines = new AuditLines();
  const { t, tokens } = useTestApp({
    options: { auditSink: lines },
    signIn: DEMO_STAFF,
  });

  const issue = async (payload: object = {}, userName: string = OPERATOR[0], token = tokens.helpdesk) => {
    const response = await t.call({ method: 'POST', url: codesUrl(userName), token, payload });
    expect(response.statusCode, response.body).toBe(201);
    return parseBody(response, IssuedTemporaryCode);
  };
  const person = async (userName: string = OPERATOR[0]) =>
    parseBody(
      await t.call({ method: 'GET', url: `/api/People/${encodeURIComponent(userName)}`, token: tokens.admin }),
      Person,
    );
  /** The operator's own instruction (the demo gives them an Active phone), answered with `code` at #3. */
  const instruction = async () =>
    parseBody(
      await t.call({
        method: 'POST',
        url: '/api/Instructions',
        token: tokens.operator,
        payload: { Name: 'Pay invoice 7' },
      }),
      Instruction,
    );
  const submit = (id: number, code: string, version = '3.3', scheduled = false) =>
    t.call({
      method: 'POST',
      url:
        version === '3.0'
          ? '/api/ConsumerAuthentication/Token'
          : `/api/Consumer/Authentication/${scheduled ? 'ScheduledInstruction' : 'Instruction'}/Token`,
      token: tokens.operator,
      version,
      payload: version === '3.0' ? { InstructionId: id, Token: code } : { Id: id, Token: code },
    });

  it('is random, twelve digits, shown once, stored only as a hash, valid an hour and once by default', async () => {
    const first = await issue();
    const second = await issue();
    expect(first.Code.replace(/\s/g, '')).toMatch(new RegExp(`^\\d{${TEMPORARY_CODE_DIGITS}}$`));
    expect(first.Code).not.toBe(second.Code);
    expect(first.UsesAllowed).toBe(1);
    expect(Date.parse(first.ExpiresUtc) - Date.parse(first.IssuedUtc)).toBe(60 * 60_000);
    expect(first.IssuedBy).toBe(HELPDESK[0]);
    const stored = await t.database.db.selectFrom('temporary_codes').select('code_hash').execute();
    for (const row of stored) {
      expect(row.code_hash).toMatch(/^scrypt\$/);
      expect(row.code_hash).not.toContain(first.Code.replace(/\s/g, ''));
    }
    const listed = (await person()).TemporaryCodes ?? [];
    expect(listed.map((code) => code.State)).toEqual(['Valid', 'Valid']);
    expect(JSON.stringify(listed)).not.toContain(first.Code);
    const audit = lines.of('temporary-code-issued').at(-1);
    expect(audit?.tachyon?.details).toMatchObject({ for: OPERATOR[0], containment: true, uses: 1, validMinutes: 60 });
    expect(JSON.stringify(lines.lines)).not.toContain(first.Code.replace(/\s/g, ''));
  });

  it('refuses out-of-range validity and uses in words', async () => {
    for (const [payload, path] of [
      [{ ValidMinutes: 9 }, 'ValidMinutes'],
      [{ ValidMinutes: 481 }, 'ValidMinutes'],
      [{ ValidMinutes: 30.5 }, 'ValidMinutes'],
      [{ Uses: 0 }, 'Uses'],
      [{ Uses: 11 }, 'Uses'],
      [{ Uses: '2' }, 'Uses'],
    ] as const) {
      const problem = expectProblem(
        await t.call({ method: 'POST', url: codesUrl(OPERATOR[0]), token: tokens.helpdesk, payload }),
        400,
        'validation',
      );
      expect(errorPaths(problem)).toEqual([path]);
    }
    const longest = await issue({ ValidMinutes: 480, Uses: 10 });
    expect(Date.parse(longest.ExpiresUtc) - Date.parse(longest.IssuedUtc)).toBe(8 * 60 * 60_000);
    expect(longest.UsesAllowed).toBe(10);
  });

  it('is refused for an unknown person, without the permission, out of reach, or in an unknown version', async () => {
    expectProblem(
      await t.call({ method: 'POST', url: codesUrl('ACME\\nobody.at.all'), token: tokens.helpdesk, payload: {} }),
      409,
      'no-account',
    );
    for (const token of [tokens.auditor, tokens.operator]) {
      expectProblem(await t.call({ method: 'POST', url: codesUrl(OPERATOR[0]), token, payload: {} }), 403, 'forbidden');
    }
    // The helpdesk reaches no account holding Accounts permissions; Write on Accounts does.
    expectProblem(
      await t.call({ method: 'POST', url: codesUrl(ADMIN[0]), token: tokens.helpdesk, payload: {} }),
      403,
      'forbidden',
    );
    await issue({}, HELPDESK[0], tokens.admin);
    expectProblem(
      await t.call({ method: 'POST', url: codesUrl(OPERATOR[0]), token: tokens.helpdesk, version: '2.0', payload: {} }),
      400,
      'unsupported-version',
    );
    expectProblem(
      await t.call({ method: 'DELETE', url: '/api/People/TemporaryCodes/99999', token: tokens.helpdesk }),
      404,
      'not-found',
    );
  });

  it('is accepted in place of the pushed code, in every version, as many times as allowed', async () => {
    const code = await issue({ Uses: 3 });
    for (const version of ['3.0', '3.1', '4.0']) {
      const made = await instruction();
      const accepted = await submit(made.Id, code.Code, version);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(parseBody(accepted, TokenAccepted).Authenticated).toBe(true);
      expect(lines.of('token-accepted').at(-1)?.tachyon?.details).toEqual({ temporaryCode: code.Id });
    }
    const fourth = await instruction();
    expectProblem(await submit(fourth.Id, code.Code), 422, 'invalid-token');
    const listed = (await person()).TemporaryCodes?.find((item) => item.Id === code.Id);
    expect(listed?.State).toBe('UsedUp');
    expect(listed?.Uses.map((use) => use.Purpose)).toEqual(['Instruction', 'Instruction', 'Instruction']);
  });

  it('is only the person’s own: another person’s code is a wrong token', async () => {
    const helpdeskCode = await issue({}, HELPDESK[0], tokens.admin);
    const made = await instruction();
    expectProblem(await submit(made.Id, helpdeskCode.Code), 422, 'invalid-token');
  });

  it('lets a person with no Active device make an instruction and authenticate it', async () => {
    const disabled = await t.call({
      method: 'POST',
      url: `/api/People/${encodeURIComponent(OPERATOR[0])}/Devices/Disable`,
      token: tokens.helpdesk,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expectProblem(
      await t.call({ method: 'POST', url: '/api/Instructions', token: tokens.operator, payload: { Name: 'Pay' } }),
      409,
      'no-active-device',
    );
    const code = await issue();
    const made = await instruction();
    expect(made.DevicesNotified).toBe(0);
    expectProblem(await submit(made.Id, '000000'), 422, 'invalid-token');
    expect((await submit(made.Id, code.Code)).statusCode).toBe(200);
  });

  it('stops working when it expires or is revoked', async () => {
    const short = await issue({ ValidMinutes: 10 });
    t.clock.advanceMinutes(11);
    const made = await instruction();
    expectProblem(await submit(made.Id, short.Code), 422, 'invalid-token');
    expect((await person()).TemporaryCodes?.find((item) => item.Id === short.Id)?.State).toBe('Expired');

    const revoked = await issue();
    expectProblem(
      await t.call({ method: 'DELETE', url: `/api/People/TemporaryCodes/${revoked.Id}`, token: tokens.auditor }),
      403,
      'forbidden',
    );
    const done = await t.call({
      method: 'DELETE',
      url: `/api/People/TemporaryCodes/${revoked.Id}`,
      token: tokens.helpdesk,
    });
    expect(done.statusCode, done.body).toBe(204);
    expect(lines.of('temporary-code-revoked').at(-1)?.event.outcome).toBe('success');
    const other = await instruction();
    expectProblem(await submit(other.Id, revoked.Code), 422, 'invalid-token');
    const listed = (await person()).TemporaryCodes?.find((item) => item.Id === revoked.Id);
    expect(listed).toMatchObject({ State: 'Revoked', RevokedBy: HELPDESK[0] });
  });

  it('of an administrator is revoked only with Write on Accounts', async () => {
    const code = await issue({}, HELPDESK[0], tokens.admin);
    const { container } = { container: tokens.helpdesk };
    expectProblem(
      await t.call({ method: 'DELETE', url: `/api/People/TemporaryCodes/${code.Id}`, token: container }),
      403,
      'forbidden',
    );
    expect(
      (await t.call({ method: 'DELETE', url: `/api/People/TemporaryCodes/${code.Id}`, token: tokens.admin }))
        .statusCode,
    ).toBe(204);
  });
});
