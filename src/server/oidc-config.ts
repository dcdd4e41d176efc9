/** Single sign-on (OpenID Connect) settings, read from OIDC_* variables. */
export interface OidcConfig {
  /** The provider's issuer URL: its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page's button says after "Sign in with". */
  name: string;
  /** The ID token claim giving the name part of `DOMAIN\name`. */
  usernameClaim: string;
  /** Upper-cased, as directory domains are. */
  domain: string;
  /** The ID token claim listing the person's groups. */
  groupsClaim: string;
  groupSecurityRead: string | null;
  groupSecurityWrite: string | null;
  groupAccountsRead: string | null;
  groupAccountsWrite: string | null;
  /** Members get Contain on Accounts: the helpdesk's containment of people who hold no Accounts permission. */
  groupAccountsContain: string | null;
  /** `amr` values that mean the provider asked for a second factor. */
  mfaAmr: string[];
  /** `acr_values` requested; an ID token whose `acr` is one of them counts as the provider's MFA. */
  acrValues: string[];
  /** Seconds to wait for the provider (discovery, token request, keys). */
  timeoutSeconds: number;
}

const words = (raw: string | undefined) => (raw ?? '').split(/\s+/).filter(Boolean);
const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(host) || host.startsWith('127.');

export function loadOidcConfig(env: NodeJS.ProcessEnv, error: (message: string) => Error): OidcConfig | null {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  if (!issuer && !clientId && !clientSecret) return null;
  if (!issuer) throw error('OIDC_ISSUER is required with OIDC_CLIENT_ID: the identity provider’s issuer URL');
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw error(`OIDC_ISSUER must be the provider's issuer URL such as https://login.acme.example, got "${issuer}"`);
  }
  // Plain HTTP only to the same machine (a provider beside the service, or the tests' own).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw error(`OIDC_ISSUER must be an https:// URL (http:// only on this machine's loopback), got "${issuer}"`);
  }
  if (!clientId)
    throw error('OIDC_CLIENT_ID is required with OIDC_ISSUER: the client ID the provider gave the dashboard');
  if (!clientSecret) {
    throw error('OIDC_CLIENT_SECRET is required with OIDC_ISSUER: the client secret the provider gave the dashboard');
  }
  const domain = env.OIDC_DOMAIN?.trim();
  if (!domain || /[\\/\s]/.test(domain)) {
    throw error(
      'OIDC_DOMAIN is required with OIDC_ISSUER: the domain part of DOMAIN\\name for people who sign in there',
    );
  }
  const group = (name: string) => env[name]?.trim() || null;
  const groups = {
    groupSecurityRead: group('OIDC_GROUP_SECURITY_READ'),
    groupSecurityWrite: group('OIDC_GROUP_SECURITY_WRITE'),
    groupAccountsRead: group('OIDC_GROUP_ACCOUNTS_READ'),
    groupAccountsWrite: group('OIDC_GROUP_ACCOUNTS_WRITE'),
    groupAccountsContain: group('OIDC_GROUP_ACCOUNTS_CONTAIN'),
  };
  if (Object.values(groups).every((value) => value === null)) {
    throw error(
      'OIDC_GROUP_SECURITY_READ, OIDC_GROUP_SECURITY_WRITE, OIDC_GROUP_ACCOUNTS_READ, OIDC_GROUP_ACCOUNTS_WRITE or ' +
        'OIDC_GROUP_ACCOUNTS_CONTAIN: set at least one, or nobody signing in with single sign-on would get any permission',
    );
  }
  const timeout = env.OIDC_TIMEOUT_SECONDS?.trim();
  const timeoutSeconds = timeout ? Number(timeout) : 10;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 60) {
    throw error(`OIDC_TIMEOUT_SECONDS must be an integer from 1 to 60, got "${timeout}"`);
  }
  return {
    issuer,
    clientId,
    clientSecret,
    name: env.OIDC_NAME?.trim() || 'single sign-on',
    usernameClaim: env.OIDC_USERNAME_CLAIM?.trim() || 'preferred_username',
    domain: domain.toUpperCase(),
    groupsClaim: env.OIDC_GROUPS_CLAIM?.trim() || 'groups',
    ...groups,
    mfaAmr: env.OIDC_MFA_AMR === undefined ? ['mfa', 'hwk', 'swk', 'otp'] : words(env.OIDC_MFA_AMR),
    acrValues: words(env.OIDC_ACR_VALUES),
    timeoutSeconds,
  };
}
