import { describe, expect, it } from 'vitest';
import { PUSH_USER_STATUSES, PushMessageUserUpdate, PushUserStatus, PushUserStatusCode } from './resources.ts';

describe('push-user status', () => {
  it('keeps the seed numbers and names', () => {
    expect(PushUserStatusCode).toEqual({ Active: 1, Disabled: 2, Deleted: 3 });
    expect(PUSH_USER_STATUSES).toEqual({ 1: 'Active', 2: 'Disabled', 3: 'Deleted' });
  });

  it('accepts the three numbers and names them all when refusing another', () => {
    for (const status of [1, 2, 3]) expect(PushUserStatus.safeParse(status).success).toBe(true);
    for (const status of [0, 4, '1', 1.5, null]) {
      const result = PushMessageUserUpdate.safeParse({ Id: 7, Status: status });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Status must be 1 (Active), 2 (Disabled) or 3 (Deleted)');
    }
  });
});
