import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** Someone the test provider signs in: their claims, and how they proved who they are there. */
export interface TestPerson {
  sub: string;
  claims: Record<string, unknown>;
  amr?: string[];
  acr?: string;
}

/**
 * What the provider does to its token answers, as an attacker or a broken provider would: the ID token re-signed with
 * other claims or an unknown key, or the answer delayed past the service's time-out.
 */
export type TokenTampering =
  | { kind: 'claims'; change: (claims: Record<string, unknown>) => Record<string, unknown> }
  | { kind: 'unknown-key' }
  | { kind: 'slow'; ms: number }
  | null;

export const TEST_CLIENT = { id: 'tachyon-dashboard', secret: 'test-client-secret-0123456789abcdef' };

/**
 * A real OpenID provider (the certified `oidc-provider` package) on 127.0.0.1, with one registered client and
 * whichever test person `signInAs` names: its login prompt signs that person in at once, with the chosen amr/acr, and
 * consent is granted (a first-party client). Its token answers pass through `tamper`, which tests set to forge them.
 */
export class TestOidcProvider {
  person: TestPerson = { sub: 'nobody', claims: {} };
  tamper: TokenTampering = null;
  readonly issuer: string;
  private readonly server: http.Server;
  private readonly signingKey: { jwk: JWK; privateKey: CryptoKey };
  /** A key the provider never published (made at start: an RSA key takes a while on a busy machine). */
  private readonly unknownKey: CryptoKey;

  private constructor(
    issuer: string,
    server: http.Server,
    signingKey: TestOidcProvider['signingKey'],
    unknownKey: CryptoKey,
  ) {
    this.issuer = issuer;
    this.server = server;
    this.signingKey = signingKey;
    this.unknownKey = unknownKey;
  }

  /** Starts the provider; `redirectUris`/`postLogoutRedirectUris`: the service's callback and sign-in page. */
  static async start(options: {
    redirectUris: string[];
    postLogoutRedirectUris: string[];
    port?: number;
  }): Promise<TestOidcProvider> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const unknown = (await generateKeyPair('RS256')).privateKey as CryptoKey;
    const self = new TestOidcProvider(issuer, server, { jwk, privateKey: privateKey as CryptoKey }, unknown);
    const configuration: Configuration = {
      clients: [
        {
          client_id: TEST_CLIENT.id,
          client_secret: TEST_CLIENT.secret,
          redirect_uris: options.redirectUris,
          post_logout_redirect_uris: options.postLogoutRedirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [jwk] },
      claims: {
        // amr and acr with the openid scope: the ID token says how the person signed in, as Entra ID and Okta do.
        openid: ['sub', 'amr', 'acr'],
        profile: ['preferred_username', 'name', 'groups', 'roles'],
        email: ['email'],
      },
      // The claims of the scopes asked for go into the ID token itself, as Entra ID and Keycloak send them.
      conformIdTokenClaims: false,
      pkce: { required: () => true, methods: ['S256'] },
      features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 3600 },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, ...(id === self.person.sub ? self.person.claims : {}) }),
      }),
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      loadExistingGrant: async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId || !ctx.oidc.client) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
        grant.addOIDCScope('openid profile email');
        await grant.save();
        return grant;
      },
    };
    const provider = new Provider(issuer, configuration);
    const callback = provider.callback();
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      if (request.url?.startsWith('/interaction/')) {
        const { person } = self;
        provider
          .interactionFinished(
            request,
            response,
            {
              login: {
                accountId: person.sub,
                ...(person.amr ? { amr: person.amr } : {}),
                ...(person.acr ? { acr: person.acr } : {}),
              },
            },
            { mergeWithLastSubmission: false },
          )
          .catch((error: unknown) => {
            response.statusCode = 500;
            response.end(String(error));
          });
        return;
      }
      if (request.method === 'POST' && request.url === '/token' && self.tamper) {
        self.tampered(request, response, callback);
        return;
      }
      callback(request, response);
    });
    return self;
  }

  /** The token answer as the provider gave it, then changed as `tamper` says. */
  private tampered(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    callback: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ): void {
    const tamper = this.tamper;
    const chunks: Buffer[] = [];
    const capture = new Proxy(response, {
      get: (target, property, receiver) => {
        if (property === 'write') {
          return (chunk: unknown) => {
            if (chunk) chunks.push(Buffer.from(chunk as Buffer));
            return true;
          };
        }
        if (property === 'end') {
          return (chunk?: unknown) => {
            if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Buffer));
            void this.finish(target, Buffer.concat(chunks).toString('utf8'), tamper);
            return target;
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    callback(request, capture);
  }

  private async finish(response: http.ServerResponse, body: string, tamper: TokenTampering): Promise<void> {
    if (tamper?.kind === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, tamper.ms));
      if (!response.destroyed) response.end(body);
      return;
    }
    const answer = JSON.parse(body) as { id_token?: string };
    if (answer.id_token && tamper) {
      const [, payload = ''] = answer.id_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const key = tamper.kind === 'unknown-key' ? this.unknownKey : this.signingKey.privateKey;
      const changed = tamper.kind === 'claims' ? tamper.change(claims) : claims;
      answer.id_token = await new SignJWT(changed)
        .setProtectedHeader({ alg: 'RS256', kid: this.signingKey.jwk.kid ?? 'test-key', typ: 'JWT' })
        .sign(key);
    }
    const text = JSON.stringify(answer);
    response.setHeader('content-length', Buffer.byteLength(text));
    response.end(text);
  }

  /** Stops answering (connections refused): a provider that is down. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
