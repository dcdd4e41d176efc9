import * as client from 'openid-client';
import type { SingleSignOnRefusal } from '../../../../shared/contract/index.ts';
import type { OidcConfig } from '../../../oidc-config.ts';

/** Why a sign-in at the provider did not give a person, in the audit stream's words (the page's words are beside). */
export type OidcFailureReason = Exclude<SingleSignOnRefusal, 'oidc-off'>;

/**
 * The provider did not give a signed-in person: the reason, and the specifics for the audit line (the person is shown
 * the reason's fixed words, never this message, which may quote the provider).
 */
export class OidcRefusal extends Error {
  readonly reason: OidcFailureReason;
  /** Who, when the provider said (refusals after the ID token was checked). */
  readonly subject: string | null;
  /** The page the person was going to, when the refused sign-in is known (their "Try again" goes there). */
  returnTo: string | null = null;

  constructor(reason: OidcFailureReason, message: string, subject: string | null = null) {
    super(message);
    this.reason = reason;
    this.subject = subject;
  }
}

/** The provider's checked answer: the ID token as it came (the sign-out's hint) and its claims. */
export interface ProviderSignIn {
  idToken: string;
  claims: client.IDToken;
}

/** What the callback is checked against: saved when the person was sent to the provider. */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider could not be reached at start: the message names the variable to look at. */
export class OidcDiscoveryError extends Error {}

const unavailable = (error: unknown) => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (['TimeoutError', 'AbortError'].includes(e.name) || e.message === 'fetch failed') return true;
    if ('code' in e && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT'].includes(String(e.code))) return true;
  }
  return false;
};

/**
 * The OpenID provider, through openid-client: discovery at start, the authorization URL (code flow with PKCE, state
 * and nonce), the code exchanged and the ID token checked (signature, issuer, audience, expiry, nonce: the library's
 * checks, never ours), and the sign-out URL when the provider has an end_session_endpoint.
 */
export class IdentityProvider {
  private readonly configuration: client.Configuration;
  private readonly config: OidcConfig;

  private constructor(configuration: client.Configuration, config: OidcConfig) {
    this.configuration = configuration;
    this.config = config;
  }

  static async discover(config: OidcConfig): Promise<IdentityProvider> {
    const server = new URL(config.issuer);
    const insecure = server.protocol === 'http:';
    try {
      const configuration = await client.discovery(
        server,
        config.clientId,
        { client_secret: config.clientSecret },
        client.ClientSecretBasic(config.clientSecret),
        {
          timeout: config.timeoutSeconds,
          // Loopback only (oidc-config.ts refuses plain HTTP elsewhere).
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      configuration.timeout = config.timeoutSeconds;
      // The ID token's signature is checked against the provider's published keys too, not only trusted for coming
      // over TLS from the token endpoint (which the specification allows, and openid-client does by default).
      client.enableNonRepudiationChecks(configuration);
      return new IdentityProvider(configuration, config);
    } catch (error) {
      const why = unavailable(error)
        ? `it did not answer within ${config.timeoutSeconds} s or could not be reached`
        : (error as Error).message;
      throw new OidcDiscoveryError(
        `OIDC_ISSUER (${config.issuer}): the provider's discovery document ` +
          `${new URL('.well-known/openid-configuration', server.href.endsWith('/') ? server : `${server.href}/`).href} ` +
          `cannot be used: ${why}. Check OIDC_ISSUER (it must be the provider's issuer URL exactly) and that this ` +
          'machine reaches the provider.',
        { cause: error },
      );
    }
  }

  get hasEndSession(): boolean {
    return this.configuration.serverMetadata().end_session_endpoint !== undefined;
  }

  authorizationUrl(redirectUri: string, checks: { state: string; nonce: string; codeChallenge: string }): URL {
    return client.buildAuthorizationUrl(this.configuration, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: checks.codeChallenge,
      code_challenge_method: 'S256',
      ...(this.config.acrValues.length > 0 ? { acr_values: this.config.acrValues.join(' ') } : {}),
    });
  }

  /** The code exchanged at the token endpoint and the ID token checked; an OidcRefusal says why not. */
  async exchange(callbackUrl: URL, checks: FlowChecks): Promise<ProviderSignIn> {
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(this.configuration, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusalOf(error);
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) {
      throw new OidcRefusal('oidc-token-invalid', 'The identity provider sent no ID token.');
    }
    return { idToken: tokens.id_token, claims };
  }

  endSessionUrl(idToken: string, postLogoutRedirectUri: string): string | null {
    if (!this.hasEndSession) return null;
    return client.buildEndSessionUrl(this.configuration, {
      id_token_hint: idToken,
      post_logout_redirect_uri: postLogoutRedirectUri,
    }).href;
  }
}

function refusalOf(error: unknown): OidcRefusal {
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcRefusal(
      'oidc-provider-error',
      `The identity provider did not sign you in: ${error.error_description ?? error.error}.`,
    );
  }
  if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') {
    return new OidcRefusal(
      'oidc-code-invalid',
      'The identity provider refused the sign-in code: it was already used, or it expired. Sign in again.',
    );
  }
  if (unavailable(error)) {
    return new OidcRefusal(
      'oidc-provider-unavailable',
      'The identity provider did not answer in time. Nothing was changed: try again in a few minutes.',
    );
  }
  return new OidcRefusal(
    'oidc-token-invalid',
    `The identity provider's answer failed its checks (${(error as Error).message}), so it was not trusted.`,
  );
}
