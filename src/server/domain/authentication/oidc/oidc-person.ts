import type { IDToken } from 'openid-client';
import {
  ACCOUNT_EMAIL_MAX,
  type AccountsPermission,
  CONTAIN,
  type Permission,
} from '../../../../shared/contract/index.ts';
import type { OidcConfig } from '../../../oidc-config.ts';
import { OidcRefusal } from './identity-provider.ts';

/** Who the provider signed in, in this service's words: the account and the permissions their groups give. */
export interface OidcPerson {
  /** `DOMAIN\name`: OIDC_DOMAIN and the OIDC_USERNAME_CLAIM claim. */
  userName: string;
  /** The provider's `sub`: who the person is there, whatever their name. */
  subject: string;
  email: string | null;
  security: Permission[];
  accounts: AccountsPermission[];
  /** Whether the provider's own second factor counts (the person then needs no second step here). */
  mfaCounted: boolean;
}

type Claims = Pick<IDToken, 'sub'> & Record<string, unknown>;

/**
 * Whether the ID token shows a second factor at the provider: an `amr` value in OIDC_MFA_AMR, or, when OIDC_ACR_VALUES
 * is set (and so requested), an `acr` equal to one of them.
 */
export function mfaCounted(claims: Claims, config: Pick<OidcConfig, 'mfaAmr' | 'acrValues'>): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((value) => typeof value === 'string') : [];
  if (amr.some((method) => config.mfaAmr.includes(method))) return true;
  return config.acrValues.length > 0 && typeof claims.acr === 'string' && config.acrValues.includes(claims.acr);
}

/** A name part the service can keep: no domain separator, no control characters, not too long. */
const NAME = /^[^\\/\s\p{Cc}]{1,100}$/u;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The person an ID token (already checked by openid-client) names, or the refusal: no user name claim, or a groups
 * claim that is not a list of strings. Being in none of the configured groups is `noGroupRefusal`'s.
 */
export function oidcPersonOf(claims: Claims, config: OidcConfig): OidcPerson {
  const subject = claims.sub;
  const name = claims[config.usernameClaim];
  if (typeof name !== 'string' || !NAME.test(name.trim())) {
    throw new OidcRefusal(
      'oidc-no-username',
      `The identity provider did not say who you are: its ID token has no usable "${config.usernameClaim}" claim ` +
        '(OIDC_USERNAME_CLAIM). An administrator of the provider must send it.',
      subject,
    );
  }
  const groups = claims[config.groupsClaim];
  if (
    groups !== undefined &&
    (!Array.isArray(groups) || !groups.every((group): group is string => typeof group === 'string'))
  ) {
    throw new OidcRefusal(
      'oidc-groups-invalid',
      `The identity provider's "${config.groupsClaim}" claim (OIDC_GROUPS_CLAIM) is not a list of groups, so the ` +
        'permissions it gives cannot be read. An administrator of the provider must send the groups as a list.',
      subject,
    );
  }
  const member = new Set(groups ?? []);
  const given = (read: string | null, write: string | null): Permission[] => [
    ...(read !== null && member.has(read) ? (['Read'] as const) : []),
    ...(write !== null && member.has(write) ? (['Write'] as const) : []),
  ];
  const security = given(config.groupSecurityRead, config.groupSecurityWrite);
  const accounts: AccountsPermission[] = [
    ...given(config.groupAccountsRead, config.groupAccountsWrite),
    ...(config.groupAccountsContain !== null && member.has(config.groupAccountsContain) ? ([CONTAIN] as const) : []),
  ];
  const email = typeof claims.email === 'string' && EMAIL.test(claims.email) ? claims.email : null;
  return {
    userName: `${config.domain}\\${name.trim()}`,
    subject,
    email: email !== null && email.length <= ACCOUNT_EMAIL_MAX ? email : null,
    security,
    accounts,
    mfaCounted: mfaCounted(claims, config),
  };
}

/** The refusal of a person in none of the configured groups (their account, if any, keeps no permission). */
export function noGroupRefusal(person: OidcPerson, config: OidcConfig): OidcRefusal | null {
  if (person.security.length > 0 || person.accounts.length > 0) return null;
  const configured = [
    config.groupSecurityRead,
    config.groupSecurityWrite,
    config.groupAccountsRead,
    config.groupAccountsWrite,
    config.groupAccountsContain,
  ].filter((group) => group !== null);
  return new OidcRefusal(
    'oidc-no-group',
    `You are in none of the groups that give access to this dashboard (${configured.join(', ')}). ` +
      'Ask your administrator to add you to one at the identity provider.',
    person.subject,
  );
}
