import { createHash } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import {
  formatTimestamp,
  type Passkey,
  type PasskeyOptions,
  type WebAuthnResponse,
} from '../../../../shared/contract/index.ts';
import type { Database } from '../../../db/schema.ts';
import { addMinutes } from '../../../lib/clock.ts';
import { notFound, ProblemError } from '../../../lib/problem-error.ts';
import { CHALLENGE_MINUTES, type ChallengePurpose, saveChallenge, takeChallenge } from './challenges.ts';
import type { RelyingParty } from './relying-party.ts';

/** Why an assertion was refused, for the audit stream (the caller hears only that the passkey was not accepted). */
export type PasskeyRefusal = 'passkey-unknown' | 'passkey-of-another' | 'passkey-invalid' | 'passkey-counter-backwards';

/** A refused passkey: the same answer whatever the reason, except a counter that went backwards (a copied passkey). */
export class PasskeyRefusedError extends ProblemError {
  readonly reason: PasskeyRefusal;
  /** The passkey's owner, when the credential was one of ours. */
  readonly principalId: number | null;

  constructor(reason: PasskeyRefusal, principalId: number | null = null) {
    super(
      401,
      'passkey-refused',
      'Passkey not accepted',
      reason === 'passkey-counter-backwards'
        ? 'This passkey’s signature counter went backwards, which a copied passkey does: it was refused. Sign in ' +
            'another way and remove it from your sign-in methods.'
        : 'The passkey was not accepted: it is not one of this account’s, or its answer was for another site or an ' +
            'old or unknown challenge. Try again.',
    );
    this.reason = reason;
    this.principalId = principalId;
  }
}

const TIMEOUT_MS = CHALLENGE_MINUTES * 60_000;

export function passkeysUnavailable(rp: RelyingParty): ProblemError | null {
  return rp.unavailable
    ? new ProblemError(409, 'passkeys-unavailable', 'Passkeys unavailable here', rp.unavailable)
    : null;
}

function requireAvailable(rp: RelyingParty): void {
  const problem = passkeysUnavailable(rp);
  if (problem) throw problem;
}

/** The WebAuthn user handle of an account: stable (an authenticator keeps one passkey per site and handle), not a name. */
const userHandle = (rp: RelyingParty, principalId: number) =>
  new Uint8Array(createHash('sha256').update(`${rp.id}\n${principalId}`).digest().subarray(0, 16));

/** The challenge a browser's answer carries (its clientDataJSON), or null when it carries none readable. */
function challengeOf(response: WebAuthnResponse): string | null {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof clientData.challenge === 'string' ? clientData.challenge : null;
  } catch {
    return null;
  }
}

async function ownCredentials(db: Kysely<Database>, principalId: number) {
  const rows = await db
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('principal_id', '=', principalId)
    .execute();
  return rows.map((row) => ({ id: row.credential_id, transports: JSON.parse(row.transports) as string[] }));
}

/** Options for adding a passkey: discoverable (no name typed at sign-in) and verifying the person (PIN, biometrics). */
export async function registrationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  person: { id: number; userName: string },
  now: Date,
): Promise<PasskeyOptions> {
  requireAvailable(rp);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: person.userName,
    userID: userHandle(rp, person.id),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: await ownCredentials(db, person.id),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await saveChallenge(db, options.challenge, 'register', person.id, addMinutes(now, CHALLENGE_MINUTES));
  return { Options: { ...options } };
}

/** Verifies the browser's answer to registration options and keeps the new passkey under a name. */
export async function addPasskey(
  { db, rp }: { db: Kysely<Database>; rp: RelyingParty },
  {
    principalId,
    name,
    response,
    now,
    addedBy,
  }: { principalId: number; name: string; response: WebAuthnResponse; now: Date; addedBy: string },
): Promise<Passkey> {
  requireAvailable(rp);
  const challenge = challengeOf(response);
  if (challenge === null || !(await takeChallenge(db, challenge, 'register', principalId, now))) {
    throw new ProblemError(
      400,
      'passkey-refused',
      'Passkey not added',
      'The passkey’s answer was for an old, used or unknown challenge. Start adding it again.',
    );
  }
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw new ProblemError(
      400,
      'passkey-refused',
      'Passkey not added',
      `The browser’s answer could not be verified: ${(error as Error).message}`,
    );
  }
  if (!verified.verified) {
    throw new ProblemError(400, 'passkey-refused', 'Passkey not added', 'The browser’s answer could not be verified.');
  }
  const { credential } = verified.registrationInfo;
  const existing = await db
    .selectFrom('passkeys')
    .select('id')
    .where('credential_id', '=', credential.id)
    .executeTakeFirst();
  if (existing) {
    throw new ProblemError(409, 'passkey-refused', 'Passkey already added', 'This passkey is already registered.');
  }
  const row = await db
    .insertInto('passkeys')
    .values({
      principal_id: principalId,
      credential_id: credential.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      name,
      created_at: formatTimestamp(now),
      last_used_at: null,
      // Passkeys are only ever added by their own person, in their session.
      added_by: addedBy,
    })
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return passkeyView(row);
}

/**
 * Options for proving a passkey: any discoverable one of anyone (a sign-in without a name), or one of this person's
 * (their second step, or a step-up).
 */
export async function assertionOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  purpose: Exclude<ChallengePurpose, 'register'>,
  principalId: number | null,
  now: Date,
): Promise<PasskeyOptions> {
  requireAvailable(rp);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: TIMEOUT_MS,
    userVerification: 'required',
    ...(principalId !== null ? { allowCredentials: await ownCredentials(db, principalId) } : {}),
  });
  await saveChallenge(db, options.challenge, purpose, principalId, addMinutes(now, CHALLENGE_MINUTES));
  return { Options: { ...options } };
}

/** The owner of the passkey a browser's answer names, before it is verified (to throttle the right account). */
export async function passkeyOwner(db: Kysely<Database>, response: WebAuthnResponse) {
  return db
    .selectFrom('passkeys')
    .innerJoin('principals', 'principals.id', 'passkeys.principal_id')
    .select(['principals.id', 'principals.user_name', 'principals.user_key', 'principals.enabled', 'principals.kind'])
    .where('passkeys.credential_id', '=', response.id)
    .executeTakeFirst();
}

/**
 * Verifies a passkey's answer to assertion options made for `purpose` (and, for a second step or a step-up, for
 * `principalId`): the passkey's owner, or a PasskeyRefusedError. The challenge is used up whatever the answer; the
 * signature counter must move forward (when the authenticator keeps one), and is kept.
 */
export async function verifyAssertion(
  { db, rp }: { db: Kysely<Database>; rp: RelyingParty },
  {
    response,
    purpose,
    principalId,
    now,
  }: {
    response: WebAuthnResponse;
    purpose: Exclude<ChallengePurpose, 'register'>;
    /** The person a second step or a step-up is for; null for a passkey sign-in alone. */
    principalId: number | null;
    now: Date;
  },
): Promise<{ principalId: number; passkeyId: number }> {
  requireAvailable(rp);
  const challenge = challengeOf(response);
  const fresh = challenge !== null && (await takeChallenge(db, challenge, purpose, principalId, now));
  const row = await db
    .selectFrom('passkeys')
    .select(['id', 'principal_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!row) throw new PasskeyRefusedError('passkey-unknown');
  if (principalId !== null && row.principal_id !== principalId) {
    throw new PasskeyRefusedError('passkey-of-another', principalId);
  }
  if (!fresh || challenge === null) throw new PasskeyRefusedError('passkey-invalid', row.principal_id);
  let newCounter: number;
  try {
    // The library's own counter check is given 0, so the one below can tell a copied passkey from a bad signature.
    const verified = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: row.credential_id,
        publicKey: isoBase64URL.toBuffer(row.public_key),
        counter: 0,
        transports: JSON.parse(row.transports) as never,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    throw new PasskeyRefusedError('passkey-invalid', row.principal_id);
  }
  const stored = Number(row.counter);
  if ((stored > 0 || newCounter > 0) && newCounter <= stored) {
    throw new PasskeyRefusedError('passkey-counter-backwards', row.principal_id);
  }
  await db
    .updateTable('passkeys')
    .set({ counter: newCounter, last_used_at: formatTimestamp(now) })
    .where('id', '=', row.id)
    .execute();
  return { principalId: row.principal_id, passkeyId: row.id };
}

/** The counter an answer carries, for tests and diagnostics. */
export function counterOf(response: WebAuthnResponse): number {
  const data = (response.response as { authenticatorData?: string }).authenticatorData;
  return data ? parseAuthenticatorData(isoBase64URL.toBuffer(data)).counter : 0;
}

function passkeyView(row: { id: number; name: string; created_at: string; last_used_at: string | null }): Passkey {
  return { Id: row.id, Name: row.name, CreatedUtc: row.created_at, LastUsedUtc: row.last_used_at };
}

export async function listPasskeys(db: Kysely<Database>, principalId: number): Promise<Passkey[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('principal_id', '=', principalId)
    .orderBy('id')
    .execute();
  return rows.map(passkeyView);
}

export async function renamePasskey(
  db: Kysely<Database>,
  principalId: number,
  id: number,
  name: string,
): Promise<Passkey> {
  const row = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
  if (!row) throw notFound('Passkey', id);
  return passkeyView(row);
}

/** Removes one of the person's passkeys; answers how many they have left. */
export async function removePasskey(db: Kysely<Database>, principalId: number, id: number): Promise<string> {
  const row = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .returning('name')
    .executeTakeFirst();
  if (!row) throw notFound('Passkey', id);
  return row.name;
}

export async function passkeyCount(db: Kysely<Database>, principalId: number): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('principal_id', '=', principalId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
