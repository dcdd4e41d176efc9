import type { Kysely } from 'kysely';
import type { SecondFactorMethod, SecondFactorPolicy } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Principal } from '../identity/principals.ts';
import { activePushUsersOf } from '../two-factor/instructions.ts';

/**
 * Whether an account never needs a second factor, whatever SECOND_FACTOR says: API accounts (the platform's scripts
 * and SDK, which sign in with a generated secret of 160 bits, never hold Accounts permissions and never reach the
 * dashboard).
 */
export function isExemptFromSecondFactor(principal: Pick<Principal, 'kind'>): boolean {
  return principal.kind === 'Api';
}

/** Whether the policy asks this person for a second factor after the password (writers: any Write permission). */
export function secondFactorRequired(
  policy: SecondFactorPolicy,
  principal: Pick<Principal, 'id' | 'grants' | 'kind'>,
): boolean {
  if (policy === 'off' || isExemptFromSecondFactor(principal)) return false;
  if (policy === 'everyone') return true;
  // Contain acts on other people's accounts as much as Write does.
  return principal.grants.some((grant) => grant.Permissions.includes('Write') || grant.Permissions.includes('Contain'));
}

/**
 * The second factors a person can use now: their passkeys, their unused recovery codes, and a code sent to their own
 * Active devices (a device enrolled through the device app and approved, whose push user is Active).
 */
export async function availableMethods(db: Kysely<Database>, principalId: number): Promise<SecondFactorMethod[]> {
  const person = await db.selectFrom('principals').select('user_key').where('id', '=', principalId).executeTakeFirst();
  const [passkeys, codes, devices] = await Promise.all([
    db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('principal_id', '=', principalId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('principal_id', '=', principalId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
    person ? activePushUsersOf(db, person.user_key, true) : [],
  ]);
  const methods: SecondFactorMethod[] = [];
  if (Number(passkeys.n) > 0) methods.push('Passkey');
  if (Number(codes.n) > 0) methods.push('RecoveryCode');
  if (devices.length > 0) methods.push('DeviceCode');
  return methods;
}
