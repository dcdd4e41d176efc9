import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import {
  API_PREFIX,
  formatTimestamp,
  type LoginResult,
  OIDC_CALLBACK_PATH,
} from '../../../../shared/contract/index.ts';
import type { AuditEvent } from '../../../audit/audit-event.ts';
import type { AuditLog } from '../../../audit/audit-log.ts';
import type { Database } from '../../../db/schema.ts';
import { addMinutes, type Clock } from '../../../lib/clock.ts';
import { ProblemError } from '../../../lib/problem-error.ts';
import type { OidcConfig } from '../../../oidc-config.ts';
import { recordAccountHistoryFrom, type SignInContext } from '../../identity/account-history.ts';
import { type PendingGrants, saveExternalPrincipal } from '../../identity/external-accounts.ts';
import { userKeyOf } from '../../identity/principals.ts';
import type { SessionService } from '../sessions.ts';
import { IdentityProvider, OidcRefusal } from './identity-provider.ts';
import { noGroupRefusal, oidcPersonOf } from './oidc-person.ts';

/** How long a person may take at the provider before the sign-in must start again. */
const FLOW_MINUTES = 10;
/** How long the dashboard has to exchange its one-time code: it does so at once, on the page the callback opens. */
const HANDOVER_SECONDS = 60;

const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const random = () => randomBytes(32).toString('base64url');

/** Where the callback sends the browser: the sign-in page, with the one-time code and the page the person wanted. */
export interface CallbackResult {
  handoverCode: string;
  returnTo: string;
}

/**
 * Single sign-on, from the button to the session: the browser is sent to the provider (code flow, PKCE, state and
 * nonce, all saved against a cookie of that browser), comes back to the callback, which has openid-client check the
 * answer, makes the account as of this sign-in and leaves a one-time code; the dashboard exchanges that code, from
 * the same browser, for its session (the session token never appears in a URL).
 */
export class OidcSignIn {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly config: OidcConfig;
  private readonly provider: IdentityProvider;
  private readonly sessions: SessionService;
  private readonly audit: AuditLog;
  /** The callback address registered at the provider. */
  readonly redirectUri: string;
  /** Where the provider sends the browser after signing out there: the sign-in page. */
  readonly postLogoutRedirectUri: string;

  constructor(options: {
    db: Kysely<Database>;
    clock: Clock;
    config: OidcConfig;
    provider: IdentityProvider;
    sessions: SessionService;
    audit: AuditLog;
    redirectUri: string;
    postLogoutRedirectUri: string;
  }) {
    this.db = options.db;
    this.clock = options.clock;
    this.config = options.config;
    this.provider = options.provider;
    this.sessions = options.sessions;
    this.audit = options.audit;
    this.redirectUri = options.redirectUri;
    this.postLogoutRedirectUri = options.postLogoutRedirectUri;
  }

  get name(): string {
    return this.config.name;
  }

  /** A new sign-in: the provider's URL to send the browser to, and the cookie value that ties the flow to it. */
  async start(returnTo: string): Promise<{ url: string; flowCookie: string }> {
    const flowCookie = random();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const codeChallenge = await client.calculatePKCECodeChallenge(codeVerifier);
    const now = this.clock();
    await this.db
      .insertInto('oidc_flows')
      .values({
        flow_hash: hash(flowCookie),
        state,
        nonce,
        code_verifier: codeVerifier,
        return_to: returnTo,
        expires_at: formatTimestamp(addMinutes(now, FLOW_MINUTES)),
      })
      .execute();
    const url = this.provider.authorizationUrl(this.redirectUri, { state, nonce, codeChallenge });
    return { url: url.href, flowCookie };
  }

  /**
   * The provider's answer: checked, the account saved as of this sign-in, and a one-time code to exchange. Throws an
   * OidcRefusal (recorded in the audit stream) for every answer that does not sign someone in.
   */
  async callback(flowCookie: string | null, query: URLSearchParams, context: SignInContext): Promise<CallbackResult> {
    const event = { action: 'sign-in', sourceIp: context.clientAddress, userAgent: context.userAgent ?? null } as const;
    let subject: string | null = null;
    let userName: string | null = null;
    let returnTo: string | null = null;
    try {
      const flow = flowCookie ? await this.takeFlow(flowCookie) : null;
      returnTo = flow?.return_to ?? null;
      if (!flow || query.get('state') !== flow.state) {
        throw new OidcRefusal(
          'oidc-state-mismatch',
          'This sign-in answer does not belong to a sign-in started in this browser (it is old, was already used, ' +
            'or comes from elsewhere). Start again from the sign-in page.',
        );
      }
      const callbackUrl = new URL(this.redirectUri);
      callbackUrl.search = query.toString();
      const answer = await this.provider.exchange(callbackUrl, {
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      });
      subject = answer.claims.sub;
      const person = oidcPersonOf(answer.claims, this.config);
      userName = person.userName;
      const grants = { Security: person.security, Accounts: person.accounts };
      // Bound to (issuer, sub) before anything is saved: a name the provider lets its users choose never takes over
      // the account (its devices, history and permissions) of the person it was first bound to.
      const binding = { issuer: answer.claims.iss, subject: answer.claims.sub };
      await this.refuseAnotherSubject(person.userName, binding, context);
      const saved = await saveExternalPrincipal(this.db, 'oidc', { ...person, grants }, this.clock(), binding);
      const noGroup = noGroupRefusal(person, this.config);
      // Its open sessions lose the permissions now (other processes within seconds: sessions.ts CACHE_TTL_MS).
      if (noGroup && saved?.source === 'oidc') this.sessions.forgetPrincipal(saved.id);
      if (!saved || (noGroup && saved.source === 'oidc')) throw noGroup ?? new Error('no account saved');
      // A permission lost is taken at once: the account's open sessions are judged anew now.
      if (saved.source === 'oidc' && !saved.pendingGrants) this.sessions.forgetPrincipal(saved.id);
      const row = saved;
      const history = (detail: string) =>
        recordAccountHistoryFrom(this.db, context, {
          principalId: row.id,
          userName: person.userName,
          action: 'SignInFailed',
          detail,
          at: this.clock(),
        });
      if (row.source !== 'oidc') {
        await history('single sign-on refused: the name is an account of this service');
        throw new OidcRefusal(
          'oidc-local-name',
          `${row.user_name} is an account of this service that signs in with its own password, so single sign-on ` +
            'cannot sign in as it. Sign in with that account’s password, or ask an administrator.',
          subject,
        );
      }
      if (row.enabled !== 1) {
        await history('single sign-on refused: the account is disabled');
        throw new OidcRefusal(
          'oidc-disabled',
          `${row.user_name} is disabled here. An account administrator can enable it again.`,
          subject,
        );
      }
      const handoverCode = random();
      await this.db
        .insertInto('oidc_handovers')
        .values({
          code_hash: hash(handoverCode),
          flow_hash: hash(flowCookie ?? ''),
          principal_id: row.id,
          id_token: answer.idToken,
          subject: person.subject,
          mfa_counted: person.mfaCounted ? 1 : 0,
          pending_grants: saved.pendingGrants ? JSON.stringify(saved.pendingGrants) : null,
          expires_at: formatTimestamp(new Date(this.clock().getTime() + HANDOVER_SECONDS * 1000)),
        })
        .execute();
      return { handoverCode, returnTo: flow.return_to };
    } catch (error) {
      const refusal =
        error instanceof OidcRefusal
          ? error
          : new OidcRefusal('oidc-token-invalid', 'The sign-in could not be completed.', subject);
      refusal.returnTo = returnTo;
      this.audit.record({
        ...event,
        userName,
        outcome: 'failure',
        reason: refusal.reason,
        details: { method: 'oidc', subject: refusal.subject ?? subject, message: refusal.message },
      });
      throw refusal;
    }
  }

  /**
   * Binds a single sign-on account with no stored subject yet (one made before subjects were kept, at its first sign-in
   * since) to this one, and refuses (`oidc-subject-mismatch`, in the account's history and the audit stream) a person
   * whose (issuer, sub) is not the one the account of their name is bound to.
   */
  private async refuseAnotherSubject(
    userName: string,
    binding: { issuer: string; subject: string },
    context: SignInContext,
  ): Promise<void> {
    const userKey = userKeyOf(userName);
    await this.db
      .updateTable('principals')
      .set({ oidc_issuer: binding.issuer, oidc_subject: binding.subject })
      .where('user_key', '=', userKey)
      .where('source', '=', 'oidc')
      .where('oidc_subject', 'is', null)
      .execute();
    const row = await this.db
      .selectFrom('principals')
      .select(['id', 'user_name', 'source', 'oidc_issuer', 'oidc_subject'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
    if (row?.source !== 'oidc') return;
    if (row.oidc_issuer === binding.issuer && row.oidc_subject === binding.subject) return;
    await recordAccountHistoryFrom(this.db, context, {
      principalId: row.id,
      userName,
      action: 'SignInFailed',
      detail: 'single sign-on refused: the name is bound to another person at the provider',
      at: this.clock(),
    });
    throw new OidcRefusal(
      'oidc-subject-mismatch',
      `${row.user_name} is bound to another person at the identity provider (another subject), so this person ` +
        'cannot sign in as it. An administrator of the provider must give them a name of their own.',
      binding.subject,
    );
  }

  /** The dashboard's one-time code, from the browser that went through the callback, exchanged for its session. */
  async exchange(code: string, flowCookie: string | null, context: SignInContext): Promise<LoginResult> {
    const now = this.clock();
    const handover = await this.db
      .selectFrom('oidc_handovers')
      .innerJoin('principals', 'principals.id', 'oidc_handovers.principal_id')
      .select([
        'oidc_handovers.principal_id',
        'oidc_handovers.flow_hash',
        'oidc_handovers.id_token',
        'oidc_handovers.subject',
        'oidc_handovers.mfa_counted',
        'oidc_handovers.pending_grants',
        'oidc_handovers.expires_at',
        'principals.user_name',
        'principals.enabled',
      ])
      .where('oidc_handovers.code_hash', '=', hash(code))
      .executeTakeFirst();
    // Used once: whoever deletes the row is the one exchange that counts.
    const taken =
      handover &&
      Number(
        (await this.db.deleteFrom('oidc_handovers').where('code_hash', '=', hash(code)).executeTakeFirst())
          .numDeletedRows,
      ) === 1;
    const event: Omit<AuditEvent, 'outcome'> = {
      action: 'sign-in',
      userName: handover?.user_name ?? null,
      sourceIp: context.clientAddress,
      userAgent: context.userAgent ?? null,
    };
    if (
      !handover ||
      !taken ||
      flowCookie === null ||
      handover.flow_hash !== hash(flowCookie) ||
      handover.expires_at <= formatTimestamp(now) ||
      handover.enabled !== 1
    ) {
      this.audit.record({
        ...event,
        outcome: 'failure',
        reason: 'oidc-handover-invalid',
        details: { method: 'oidc', subject: handover?.subject ?? null },
      });
      throw new ProblemError(
        400,
        'single-sign-on-code-invalid',
        'Single sign-on not completed',
        'This sign-in link was already used, has expired, or was opened in another browser. Sign in again.',
      );
    }
    const mfaCounted = handover.mfa_counted === 1;
    // The provider's MFA counts as the second factor; else the product's own second step follows (a ticket).
    const result = await this.sessions.completeFirstFactor(
      {
        principalId: handover.principal_id,
        secondFactor: mfaCounted ? 'IdentityProvider' : null,
        firstFactor: 'single-sign-on',
        userName: handover.user_name,
        auditsSuccess: true,
        ...(handover.id_token ? { oidcIdToken: handover.id_token } : {}),
        ...(handover.pending_grants ? { pendingGrants: JSON.parse(handover.pending_grants) as PendingGrants } : {}),
      },
      context,
    );
    await recordAccountHistoryFrom(this.db, context, {
      principalId: handover.principal_id,
      userName: handover.user_name,
      action: 'SignedIn',
      detail: mfaCounted ? 'single sign-on, with the provider’s MFA' : 'single sign-on',
      at: now,
    });
    await this.db
      .updateTable('principals')
      .set({ last_sign_in_at: formatTimestamp(now) })
      .where('id', '=', handover.principal_id)
      .execute();
    this.audit.record({
      ...event,
      outcome: 'success',
      entity: { type: 'Account', id: handover.principal_id },
      details: { method: 'oidc', subject: handover.subject, mfaCounted },
    });
    return result;
  }

  /** Where to send the browser after the session ended here: the provider's sign-out, when it has one. */
  endSessionUrl(idToken: string | null): string | null {
    return idToken ? this.provider.endSessionUrl(idToken, this.postLogoutRedirectUri) : null;
  }

  /** Deletes sign-ins never finished and codes never exchanged. */
  async purge(): Promise<void> {
    const now = formatTimestamp(this.clock());
    await this.db.deleteFrom('oidc_flows').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('oidc_handovers').where('expires_at', '<=', now).execute();
  }

  /** The flow a cookie names, removed: each is answered once, and not past its deadline. */
  private async takeFlow(flowCookie: string) {
    const flowHash = hash(flowCookie);
    const flow = await this.db
      .selectFrom('oidc_flows')
      .selectAll()
      .where('flow_hash', '=', flowHash)
      .executeTakeFirst();
    if (!flow) return null;
    const deleted = await this.db.deleteFrom('oidc_flows').where('flow_hash', '=', flowHash).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1 || flow.expires_at <= formatTimestamp(this.clock())) return null;
    return flow;
  }
}

/**
 * Single sign-on as configured, or null when OIDC_ISSUER is unset. The provider is asked for its discovery document
 * now: a provider that cannot be used stops the start (OidcDiscoveryError, which names OIDC_ISSUER) rather than the
 * first sign-in.
 */
export async function openSingleSignOn(options: {
  db: Kysely<Database>;
  clock: Clock;
  /** The OIDC_* settings, or null when single sign-on is off. */
  oidc: OidcConfig | null;
  /** PUBLIC_URL: the callback and the page after the provider's sign-out are under it. */
  publicUrl: string;
  sessions: SessionService;
  audit: AuditLog;
}): Promise<OidcSignIn | null> {
  const { oidc, publicUrl, ...rest } = options;
  if (!oidc) return null;
  const provider = await IdentityProvider.discover(oidc);
  return new OidcSignIn({
    ...rest,
    config: oidc,
    provider,
    redirectUri: new URL(`${API_PREFIX}${OIDC_CALLBACK_PATH}`, publicUrl).href,
    postLogoutRedirectUri: new URL('/login', publicUrl).href,
  });
}
