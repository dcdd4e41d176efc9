import type { SecondFactorMethod } from '../../../shared/contract/index.ts';
import type { PendingGrants } from '../identity/external-accounts.ts';
import type { ProofKind } from './assurance.ts';

/**
 * What a sign-in hands `SessionService.completeFirstFactor`, the one place every sign-in ends: a first factor that
 * succeeded (a password, the directory, a passkey alone, single sign-on), alone or with the second step its ticket
 * waited for. The sign-in runs first factor → ticket (sign-in-tickets.ts) → second step (sign-in-methods.ts) →
 * session (sessions.ts), every way in through this one interface.
 */
export interface FirstFactor {
  /** The account the first factor proved. */
  principalId: number;
  /**
   * Whether a second factor counts already: this first factor is one too (a passkey with user verification), brings
   * one (the identity provider's MFA, as its ID token says), or the second step gave one (its ticket spent).
   */
  secondFactor: SecondFactorMethod | 'IdentityProvider' | 'TemporaryCode' | null;
  /** The first factor's kind (a password when absent). */
  firstFactor?: ProofKind;
  /** What the history's `SignedIn` says of the first factor ("directory", "API account"). */
  historyDetail?: string | null;
  /** What the audit stream names the sign-in by (the user name typed, or the account's). */
  userName: string;
  /** The identity provider's ID token, kept with the session for signing out there. */
  oidcIdToken?: string;
  /** The caller writes the sign-in's audit line itself (with what only it knows); this writes only refusals. */
  auditsSuccess?: boolean;
  /** Permissions a directory or provider sign-in brings: judged now, written only when the session opens. */
  pendingGrants?: PendingGrants;
}
