import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HELPDESK, type TestApp } from '../../test/harness.ts';
import { AlertRules } from './alert-rules.ts';

/** The rules beside the HTTP tests: events no endpoint of this branch emits yet, and what is never an alert. */
describe('alert rules', () => {
  let t: TestApp;
  let rules: AlertRules;
  const at = new Date('2026-11-21T09:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp();
    rules = new AlertRules(t.database.db);
  });
  afterAll(() => t.close());

  it('turns a temporary code issued into an alert naming the person, with a link to them and no code', async () => {
    const alert = await rules.alertOf(
      {
        action: 'temporary-code-issued',
        outcome: 'success',
        userName: HELPDESK[0],
        sourceIp: '198.51.100.7',
        details: { for: 'DEMO\\jane' },
      },
      at,
    );
    expect(alert).toEqual({
      kind: 'TemporaryCodeIssued',
      summary: `${HELPDESK[0]} issued a temporary sign-in code to DEMO\\jane`,
      facts: [
        ['Person', 'DEMO\\jane'],
        ['From', '198.51.100.7'],
      ],
      path: '/people/DEMO%5Cjane',
      action: 'Open the person',
      occurredAt: at.toISOString(),
    });
  });

  it('ignores failures, other changes and events of no rule', async () => {
    expect(
      await rules.alertOf({ action: 'temporary-code-issued', outcome: 'failure', reason: 'forbidden' }, at),
    ).toBeNull();
    expect(
      await rules.alertOf({ action: 'account-changed', outcome: 'success', details: { change: 'email' } }, at),
    ).toBeNull();
    expect(await rules.alertOf({ action: 'alert-sent', outcome: 'success' }, at)).toBeNull();
    expect(
      await rules.alertOf({ action: 'sign-in', outcome: 'failure', reason: 'invalid-credentials', userName: 'x' }, at),
    ).toBeNull();
  });
});
