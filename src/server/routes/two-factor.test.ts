import { describe, expect, it } from 'vitest';
import { DemoInstruction, DemoPushList, TokenAccepted } from '../../shared/contract/index.ts';
import {
  ADMIN,
  demoCreateInstruction,
  errorPaths,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  pushedToken,
  useTestApp,
  wrongToken,
} from '../test/harness.ts';

const INSTRUCTION_TOKEN = '/api/Consumer/Authentication/Instruction/Token';
const SCHEDULED_TOKEN = '/api/Consumer/Authentication/ScheduledInstruction/Token';
const OBSOLETE_TOKEN = '/api/ConsumerAuthentication/Token';
const OBSOLETE_TOKEN_ALIAS = '/api/Consumer/Authentication/Token';

describe('two-factor tokens: #2, #3, #4', () => {
  const { t, tokens } = useTestApp({ signIn: { operator: OPERATOR } });

  const submit = (url: string, payload: object, token = tokens.operator, version?: string) =>
    t.call({ method: 'POST', url, payload, token, ...(version ? { version } : {}) });

  describe('the full flow, as DEMO\\operator', () => {
    it('#3: creates an instruction, reads the pushed token, submits it: Authenticated', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      expect(instruction).toMatchObject({ Scheduled: false, CreatedBy: 'DEMO\\operator', State: 'AwaitingTwoFactor' });
      expect(instruction.DeliveredTo).toBe(1);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      expect(token).toMatch(/^\d{6}$/);

      const response = await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, TokenAccepted)).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });
      expect(response.json()).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });
      // The state is Authenticated: the same token again is 409, not 422.
      expectProblem(
        await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }),
        409,
        'already-authenticated',
      );
    });

    it('#4: the same for a scheduled instruction', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator, true);
      expect(instruction.Scheduled).toBe(true);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const response = await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: token });
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, TokenAccepted)).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });
      expectProblem(await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: token }), 409, 'already-authenticated');
    });

    it('#2 at API 3.0: InstructionId in place of Id, no Deprecation header', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const response = await submit(
        OBSOLETE_TOKEN,
        { InstructionId: instruction.Id, Token: token },
        tokens.operator,
        '3.0',
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, TokenAccepted)).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });
      expect(response.headers['api-version']).toBe('3.0');
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.link).toBeUndefined();
    });

    it('#2 is also served at /Consumer/Authentication/Token, where the published client calls it', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const response = await submit(
        OBSOLETE_TOKEN_ALIAS,
        { InstructionId: instruction.Id, Token: token },
        tokens.operator,
        '3.0',
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(parseBody(response, TokenAccepted)).toEqual({ Id: instruction.Id, Authenticated: true, Successful: true });
    });

    for (const version of ['3.1', '3.2', '3.3', '4.0']) {
      it(`#2 still works at ${version}, marked deprecated with its successor`, async () => {
        const instruction = await demoCreateInstruction(t, tokens.operator);
        const token = await pushedToken(t, tokens.operator, instruction.Id);
        for (const url of [OBSOLETE_TOKEN, OBSOLETE_TOKEN_ALIAS]) {
          const response = await submit(
            url,
            { InstructionId: instruction.Id, Token: wrongToken(token) },
            tokens.operator,
            version,
          );
          expectProblem(response, 422, 'invalid-token');
          expect(response.headers.deprecation).toMatch(/^@\d+$/);
          expect(response.headers.link).toBe(
            '</api/Consumer/Authentication/Instruction/Token>; rel="successor-version"',
          );
        }
        const response = await submit(
          OBSOLETE_TOKEN,
          { InstructionId: instruction.Id, Token: token },
          tokens.operator,
          version,
        );
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['api-version']).toBe(version);
        expect(response.headers.deprecation).toMatch(/^@\d+$/);
        expect(response.headers.link).toBe('</api/Consumer/Authentication/Instruction/Token>; rel="successor-version"');
      });
    }
  });

  it("pushes the token only to the creator's Active devices, and refuses a creator without one", async () => {
    const helpdesk = await t.login(...HELPDESK);
    // DEMO\helpdesk's only device is Disabled in the demo data: no code can reach them, so nothing is created.
    const refused = await t.call({ method: 'POST', url: '/api/Demo/Instructions', token: helpdesk, payload: {} });
    expectProblem(refused, 409, 'no-active-device');
    const pushes = await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: helpdesk });
    expect(parseBody(pushes, DemoPushList)).toEqual([]);
    // DEMO\operator has one Active device: one push, to it.
    const instruction = await demoCreateInstruction(t, tokens.operator);
    expect(instruction.DeliveredTo).toBe(1);
    const delivered = await t.call({ method: 'GET', url: '/api/Demo/Pushes', token: tokens.operator });
    expect(parseBody(delivered, DemoPushList)).toHaveLength(1);
  });

  it('accepts a token only from the creator: 403 not-creator for anyone else (#2, #3, #4)', async () => {
    const admin = await t.login(...ADMIN);
    const instruction = await demoCreateInstruction(t, tokens.operator);
    const scheduled = await demoCreateInstruction(t, tokens.operator, true);
    const token = await pushedToken(t, tokens.operator, instruction.Id);
    const scheduledToken = await pushedToken(t, tokens.operator, scheduled.Id);

    const problem = expectProblem(
      await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }, admin),
      403,
      'not-creator',
    );
    // Who runs which instruction is nobody else's business: the refusal does not name the creator.
    expect(problem.detail).not.toContain('DEMO\\operator');
    expect(JSON.stringify(problem).toLowerCase()).not.toContain('operator');
    expectProblem(
      await submit(SCHEDULED_TOKEN, { Id: scheduled.Id, Token: scheduledToken }, admin),
      403,
      'not-creator',
    );
    expectProblem(
      await submit(OBSOLETE_TOKEN, { InstructionId: instruction.Id, Token: token }, admin, '3.0'),
      403,
      'not-creator',
    );
    // The refused calls did not use the creator's token up.
    expect((await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token })).statusCode).toBe(200);
  });

  it('answers 404 for an instruction that does not exist, and tells instructions from scheduled ones', async () => {
    expectProblem(await submit(INSTRUCTION_TOKEN, { Id: 999_999, Token: '123456' }), 404, 'not-found');
    expectProblem(await submit(SCHEDULED_TOKEN, { Id: 999_999, Token: '123456' }), 404, 'not-found');
    expectProblem(
      await submit(OBSOLETE_TOKEN, { InstructionId: 999_999, Token: '123456' }, tokens.operator, '3.0'),
      404,
      'not-found',
    );
    const instruction = await demoCreateInstruction(t, tokens.operator);
    const scheduled = await demoCreateInstruction(t, tokens.operator, true);
    expectProblem(await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: '123456' }), 404, 'not-found');
    expectProblem(await submit(INSTRUCTION_TOKEN, { Id: scheduled.Id, Token: '123456' }), 404, 'not-found');
  });

  it('answers 401 without a session, before anything else', async () => {
    const instruction = await demoCreateInstruction(t, tokens.operator);
    for (const url of [INSTRUCTION_TOKEN, SCHEDULED_TOKEN]) {
      const response = await t.call({ method: 'POST', url, payload: { Id: instruction.Id, Token: '123456' } });
      expectProblem(response, 401, 'unauthenticated');
      expect(String(response.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    }
    const response = await t.call({
      method: 'POST',
      url: OBSOLETE_TOKEN,
      payload: { InstructionId: instruction.Id, Token: '123456' },
    });
    expectProblem(response, 401, 'unauthenticated');
  });

  it('validates the submission: Id (or InstructionId for #2) and Token are required', async () => {
    expect(errorPaths(expectProblem(await submit(INSTRUCTION_TOKEN, {}), 400, 'validation'))).toEqual(['Id', 'Token']);
    expect(
      errorPaths(expectProblem(await submit(SCHEDULED_TOKEN, { Id: 'x', Token: '1' }), 400, 'validation')),
    ).toEqual(['Id']);
    expect(
      errorPaths(expectProblem(await submit(INSTRUCTION_TOKEN, { Id: 1.5, Token: '' }), 400, 'validation')),
    ).toEqual(['Id', 'Token']);
    // #2 takes InstructionId, not Id.
    expect(
      errorPaths(
        expectProblem(
          await submit(OBSOLETE_TOKEN, { Id: 1, Token: '123456' }, tokens.operator, '3.0'),
          400,
          'validation',
        ),
      ),
    ).toEqual(['InstructionId']);
  });

  it('matches body property names case-insensitively', async () => {
    const instruction = await demoCreateInstruction(t, tokens.operator);
    const token = await pushedToken(t, tokens.operator, instruction.Id);
    const response = await submit(INSTRUCTION_TOKEN, { id: instruction.Id, TOKEN: token });
    expect(response.statusCode, response.body).toBe(200);
  });

  describe('wrong, expired and locked tokens', () => {
    it('answers a wrong token with 422 and the attempts left', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const problem = expectProblem(
        await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: wrongToken(token) }),
        422,
        'invalid-token',
      );
      expect(problem.attemptsLeft).toBe(4);
      expect(problem.detail).toContain('4 attempts left');
      // A wrong try does not spoil the right one.
      expect((await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token })).statusCode).toBe(200);
    });

    it('answers 422 token-expired once the token is 10 minutes old; a new token works', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      t.clock.advanceMinutes(10);
      expectProblem(await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }), 422, 'token-expired');
      // Still expired, right token or wrong.
      expectProblem(await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }), 422, 'token-expired');

      const reissued = await t.call({
        method: 'POST',
        url: `/api/Demo/Instructions/${instruction.Id}/Token`,
        token: tokens.operator,
      });
      expect(reissued.statusCode, reissued.body).toBe(200);
      expect(parseBody(reissued, DemoInstruction)).toMatchObject({ Id: instruction.Id, State: 'AwaitingTwoFactor' });
      const fresh = await pushedToken(t, tokens.operator, instruction.Id);
      expect((await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: fresh })).statusCode).toBe(200);
    });

    it('still accepts the token just before 10 minutes', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator, true);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      t.clock.advanceMinutes(9.9);
      expect((await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: token })).statusCode).toBe(200);
    });

    it('locks after 5 wrong tokens (423), refuses even the right one, and a reissued token unlocks', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const wrong = { Id: instruction.Id, Token: wrongToken(token) };
      for (const left of [4, 3, 2, 1]) {
        const problem = expectProblem(await submit(INSTRUCTION_TOKEN, wrong), 422, 'invalid-token');
        expect(problem.attemptsLeft).toBe(left);
      }
      expectProblem(await submit(INSTRUCTION_TOKEN, wrong), 423, 'instruction-locked');
      expectProblem(await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }), 423, 'instruction-locked');
      expectProblem(await submit(INSTRUCTION_TOKEN, wrong), 423, 'instruction-locked');

      const reissued = await t.call({
        method: 'POST',
        url: `/api/Demo/Instructions/${instruction.Id}/Token`,
        token: tokens.operator,
      });
      expect(reissued.statusCode, reissued.body).toBe(200);
      const fresh = await pushedToken(t, tokens.operator, instruction.Id);
      // The old token is no longer valid (unless the new one happens to be equal).
      if (fresh !== token) {
        expectProblem(await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }), 422, 'invalid-token');
      }
      expect((await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: fresh })).statusCode).toBe(200);
    });

    it('locks scheduled instructions the same way (#4)', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator, true);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      for (let i = 0; i < 4; i += 1) {
        expectProblem(
          await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: wrongToken(token) }),
          422,
          'invalid-token',
        );
      }
      expectProblem(
        await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: wrongToken(token) }),
        423,
        'instruction-locked',
      );
      expectProblem(await submit(SCHEDULED_TOKEN, { Id: instruction.Id, Token: token }), 423, 'instruction-locked');
    });

    it('counts wrong tokens submitted at once without losing any', async () => {
      const instruction = await demoCreateInstruction(t, tokens.operator);
      const token = await pushedToken(t, tokens.operator, instruction.Id);
      const wrong = { Id: instruction.Id, Token: wrongToken(token) };
      const answers = await Promise.all(Array.from({ length: 8 }, () => submit(INSTRUCTION_TOKEN, wrong)));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([422, 422, 422, 422, 423, 423, 423, 423]);
      expectProblem(await submit(INSTRUCTION_TOKEN, { Id: instruction.Id, Token: token }), 423, 'instruction-locked');
    });
  });
});
