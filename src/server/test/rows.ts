import type { Insertable } from 'kysely';
import type { PushMessageUserTable } from '../db/schema.ts';

/** A push_message_users row for tests that write the table directly: Active, on iOS, stamped at one moment. */
export function pushUserRow(
  userName: string,
  overrides: Partial<Insertable<PushMessageUserTable>> = {},
): Insertable<PushMessageUserTable> {
  return {
    device_type: 'iOS',
    user_name: userName,
    user_key: userName.toLowerCase(),
    created_at: '2026-11-21 09:00:00.000',
    modified_at: '2026-11-21 09:00:00.000',
    status: 1,
    ...overrides,
  };
}
