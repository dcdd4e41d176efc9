import { describe, expect, it } from 'vitest';
import { ReportedCodeList } from '../../../shared/contract/index.ts';
import { AUDITOR, expectProblem, HELPDESK, OPERATOR, parseBody, useTestApp } from '../../test/harness.ts';

describe('who reads the "This wasn\'t me" reports', () => {
  const { t, tokens } = useTestApp({
    signIn: { helpdesk: HELPDESK, auditor: AUDITOR, operator: OPERATOR },
    per: 'file',
  });
  const reportedCodes = (token: string) => t.call({ method: 'GET', url: '/api/Admin/Accounts/ReportedCodes', token });
  it('is everyone with Read on Security, the helpdesk without any Accounts permission included', async () => {
    for (const token of [tokens.helpdesk, tokens.auditor]) {
      const answer = await reportedCodes(token);
      expect(answer.statusCode, answer.body).toBe(200);
      parseBody(answer, ReportedCodeList);
    }
  });

  it('is nobody without it', async () => {
    expectProblem(await reportedCodes(tokens.operator), 403, 'forbidden');
  });
});
