import type { SecondFactorMethod, SecondFactorPolicy } from '../../../shared/contract/index.ts';
import type { Principal } from '../identity/principals.ts';
import { secondFactorRequired } from './second-factor-policy.ts';

/**
 * Every kind of proof a session can hold, and what each is worth: the one place a new kind is added. `secondStep`:
 * it completes a sign-in the second-factor policy asks a second factor of (and keeps the session full when the
 * account comes to need one); `stepUp`: it lets step-up actions through for STEP_UP_MINUTES after it was made.
 */
export const PROOFS = {
  /** A password (local, the directory's, an API account's secret): a first factor only. */
  password: { secondStep: false, stepUp: false, words: 'a password' },
  /** The identity provider's sign-in without its MFA: a first factor only. */
  'single-sign-on': { secondStep: false, stepUp: false, words: 'single sign-on' },
  passkey: { secondStep: true, stepUp: true, words: 'a passkey' },
  'recovery-code': { secondStep: true, stepUp: true, words: 'a recovery code' },
  'device-code': { secondStep: true, stepUp: true, words: 'a device code' },
  /**
   * A temporary code from the helpdesk: it completes the person's sign-in (they may then add a first passkey), but
   * never lets a step-up through: someone other than the person knew it first.
   */
  'temporary-code': { secondStep: true, stepUp: false, words: 'a temporary code from the helpdesk' },
  /** The provider's MFA, as its ID token's amr/acr show. */
  'provider-mfa': { secondStep: true, stepUp: true, words: 'the provider’s MFA' },
  /**
   * A session of before these kinds were recorded that had verified a second factor: it keeps what it had, until its
   * deadline (at most SESSION_ABSOLUTE_HOURS).
   */
  earlier: { secondStep: true, stepUp: true, words: 'a second factor' },
} as const satisfies Record<string, { secondStep: boolean; stepUp: boolean; words: string }>;

export type ProofKind = keyof typeof PROOFS;

/** The proof kind of a second factor as the contract names it. */
export const PROOF_OF_METHOD: Record<SecondFactorMethod | 'IdentityProvider' | 'TemporaryCode', ProofKind> = {
  TemporaryCode: 'temporary-code',
  Passkey: 'passkey',
  RecoveryCode: 'recovery-code',
  DeviceCode: 'device-code',
  IdentityProvider: 'provider-mfa',
};

/** A stored proof kind; an unknown or missing one (a row of before) is `earlier`. */
export const proofKindOf = (stored: string | null): ProofKind =>
  stored !== null && Object.hasOwn(PROOFS, stored) ? (stored as ProofKind) : 'earlier';

/** What a session holds: its first factor, and its last second factor (kind and moment) if any. */
export interface SessionProof {
  firstFactorAt: Date;
  secondFactor: { kind: ProofKind; at: Date } | null;
}

/**
 * Whether the session may do nothing but add (or prove) a second factor, judged on each request against the account's
 * permissions now: a session that never proved one is enrolment-only the moment its account needs one.
 */
export function enrolmentOnly(
  policy: SecondFactorPolicy,
  principal: Pick<Principal, 'id' | 'grants' | 'kind'>,
  proof: SessionProof,
): boolean {
  if (!secondFactorRequired(policy, principal)) return false;
  return proof.secondFactor === null || !PROOFS[proof.secondFactor.kind].secondStep;
}

/** Whether the session's last second factor lets step-up actions through at `now`. */
export function stepUpFresh(proof: SessionProof, now: Date, stepUpMinutes: number): boolean {
  const last = proof.secondFactor;
  if (last === null || !PROOFS[last.kind].stepUp) return false;
  return now.getTime() - last.at.getTime() < stepUpMinutes * 60_000;
}

/** The last moment the session's person proved anything: a factor added or approved after it proves nothing here. */
export const lastProofAt = (proof: SessionProof): Date =>
  proof.secondFactor && proof.secondFactor.at > proof.firstFactorAt ? proof.secondFactor.at : proof.firstFactorAt;
