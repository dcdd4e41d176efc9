import type { LoginResult } from '../../../shared/contract/index.ts';
import type { SessionService } from './sessions.ts';

/** How the person proved who they are. */
export type FirstFactorMethod = 'oidc';

export interface FirstFactor {
  principal: { id: number; user_name: string };
  method: FirstFactorMethod;
  /**
   * Whether a second factor already counts: the identity provider's MFA, as its ID token's amr/acr show
   * (oidc/oidc-person.ts `mfaCounted`).
   */
  secondFactorSatisfied: boolean;
  /** The provider's ID token, kept with the session for signing out there. */
  oidcIdToken?: string;
}

/**
 * The moment a person's first factor succeeded. Today it opens the session at once.
 *
 * The product's own second step plugs in here: when `secondFactorSatisfied` is false and the SECOND_FACTOR policy asks
 * for one, this answers "second step pending" (passkey, device code or recovery code) instead of a session, and the
 * session is opened when that step succeeds. Every first factor comes through this one function, so none skips it.
 */
export function completeFirstFactor(sessions: SessionService, factor: FirstFactor): Promise<LoginResult> {
  return sessions.open(factor.principal, factor.oidcIdToken ? { oidcIdToken: factor.oidcIdToken } : {});
}
