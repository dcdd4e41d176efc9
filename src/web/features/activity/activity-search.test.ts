import { describe, expect, it } from 'vitest';
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
    ).toBe('Signed in, failed: invalid-credentials');
    // An action a newer server has shows its own name.
    expect(activitySummary({ ...event, Action: 'alert-sent', Details: {} })).toBe('alert-sent');
  });
});
