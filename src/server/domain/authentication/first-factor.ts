import type { LoginResult } from '../../../shared/contract/index.ts';
import type { SignInContext } from '../identity/account-history.ts';
import type { PendingGrants } from '../identity/external-accounts.ts';
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
  /** Permissions the provider's groups bring, written only once the sign-in completes. */
  pendingGrants?: PendingGrants;
}

/**
 * The moment a person's first factor succeeded: the session, or the product's own second step when SECOND_FACTOR asks
 * this person for one and the provider's MFA did not count (SessionService.afterFirstFactor decides, for every first
 * factor). The caller writes the success's audit line, with what only it knows.
 */
export function completeFirstFactor(
  sessions: SessionService,
  factor: FirstFactor,
  where: SignInContext,
): Promise<LoginResult> {
  return sessions.afterFirstFactor(factor.principal.id, where, {
    secondFactor: factor.secondFactorSatisfied ? 'IdentityProvider' : null,
    firstFactor: 'single-sign-on',
    userName: factor.principal.user_name,
    auditsSuccess: true,
    ...(factor.oidcIdToken ? { oidcIdToken: factor.oidcIdToken } : {}),
    ...(factor.pendingGrants ? { pendingGrants: factor.pendingGrants } : {}),
  });
}
