import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS } from '../../../shared/contract/index.ts';
import { activitySummary } from '../../entities/activity/activity-labels.ts';
import { ActivitySearch, anyFilter } from './activity-search.ts';

const event = {
  Id: 1,
  TimestampUtc: '2026-11-27 10:00:00.000',
  Outcome: 'success' as const,
  Reason: null,
  Actor: 'DEMO\\helpdesk',
  Person: 'DEMO\\jane',
  TargetType: 'AuthorizationRequest',
  TargetId: '12',
  SourceIp: '127.0.0.1',
  UserAgent: null,
};

describe('the Activity page URL', () => {
  it('keeps the filters a link carries', () => {
    const search = ActivitySearch.parse({
      actor: 'DEMO\\helpdesk',
      target: 'AuthorizationRequest:12',
      action: 'device-enrolled',
      outcome: 'failure',
      from: '2026-11-01',
      to: '2026-11-27',
      q: '203.0.113',
    });
    expect(search).toMatchObject({ target: 'AuthorizationRequest:12', outcome: 'failure', from: '2026-11-01' });
    expect(anyFilter(search)).toBe(true);
  });

  it('drops a bad value to no filter rather than fail the page', () => {
    const search = ActivitySearch.parse({
      target: 'Nothing:1',
      action: 'DROP TABLE',
      outcome: 'maybe',
      from: 'yesterday',
      actor: '   ',
    });
    expect(search).toEqual({
      actor: undefined,
      person: undefined,
      target: undefined,
      action: undefined,
      outcome: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
    });
    expect(anyFilter(search)).toBe(false);
  });
});

describe('an event in words', () => {
  it('says what a decision, an enrolment and a failure were', () => {
    expect(activitySummary({ ...event, Action: 'authorization-decided', Details: { authorized: true } })).toBe(
      'Device decision (approved)',
    );
    expect(activitySummary({ ...event, Action: 'device-enrolled', Details: { by: 'enrollment-code' } })).toBe(
      'Device enrolled (from an enrolment link)',
    );
    expect(
      activitySummary({ ...event, Action: 'sign-in', Outcome: 'failure', Reason: 'invalid-credentials', Details: {} }),
    ).toBe('Signed in, failed: invalid credentials');
    // An action a newer server has shows its own name, in words, and a detail it adds its name and value.
    expect(activitySummary({ ...event, Action: 'badge-printed', Details: { copies: 2 } })).toBe(
      'badge printed (copies: 2)',
    );
  });

  it('says every detail the service records in words, not as its field names', () => {
    expect(activitySummary({ ...event, Action: 'sign-in', Details: { accountKind: 'Person' } })).toBe('Signed in');
    expect(activitySummary({ ...event, Action: 'sign-in', Details: { accountKind: 'Api' } })).toBe(
      'Signed in (an API account)',
    );
    expect(
      activitySummary({
        ...event,
        Action: 'temporary-code-issued',
        Details: {
          for: 'ACME\\jo',
          validMinutes: 60,
          uses: 3,
          containment: true,
          temporaryCode: 7,
          expires: '2026-11-27 15:04:00.000',
        },
      }),
    ).toMatch(
      /^Temporary code issued \(for ACME\\jo, usable 3 times, with Accounts Contain, code #7, valid until .*2026.*\)$/,
    );
    expect(
      activitySummary({ ...event, Action: 'session-ended', Details: { cause: 'idle-timeout', endedAt: 'x' } }),
    ).toBe('Session ended (idle too long)');
    expect(activitySummary({ ...event, Action: 'devices-disabled', Details: { for: 'ACME\\jo' } })).toBe(
      'Devices disabled (for ACME\\jo)',
    );
    expect(
      activitySummary({
        ...event,
        Action: 'alert-sent',
        Details: { messageId: 'm1', alert: 'CodeReported', attempts: 1 },
      }),
    ).toBe('Alert sent (CodeReported)');
  });

  it('names every action of the contract in words of its own', () => {
    const labels = ACTIVITY_ACTIONS.map((action) => activitySummary({ ...event, Action: action, Details: {} }));
    // None falls back to its machine name.
    const machine = (action = '') => [action, action.replaceAll('-', ' ')];
    expect(labels.filter((label, index) => machine(ACTIVITY_ACTIONS[index]).includes(label))).toEqual([]);
    expect(new Set(labels).size).toBe(ACTIVITY_ACTIONS.length);
  });
});
