import type { Kysely } from 'kysely';
import type {
  DeviceCodeSent,
  LoginResult,
  Passkey,
  PasskeyOptions,
  SecondFactorMethod,
  SignInMethods,
  SignInMethodsReset,
  StepUpProof,
  StepUpResult,
  WebAuthnResponse,
} from '../../../shared/contract/index.ts';
import { formatTimestamp, PushUserStatusCode } from '../../../shared/contract/index.ts';
import type { AuditLog } from '../../audit/audit-log.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound, ProblemError } from '../../lib/problem-error.ts';
import { writeAndPublish } from '../core/change-feed.ts';
import { recordAccountHistory, recordAccountHistoryFrom, type SignInContext } from '../identity/account-history.ts';
import type { PendingGrants } from '../identity/external-accounts.ts';
import type { Principal } from '../identity/principals.ts';
import {
  type DeviceCodeBinding,
  type DeviceCodeOwner,
  type DeviceCodePurpose,
  judgeDeviceCode,
  sendDeviceCode,
} from '../two-factor/device-codes.ts';
import type { TokenDelivery } from '../two-factor/instructions.ts';
import { temporaryCodeRefused, useTemporaryCode } from '../two-factor/temporary-codes.ts';
import { PROOF_OF_METHOD } from './assurance.ts';
import {
  addPasskey,
  assertionOptions,
  listPasskeys,
  PasskeyRefusedError,
  passkeyCount,
  passkeyOwner,
  registrationOptions,
  removePasskey,
  renamePasskey,
  verifyAssertion,
} from './passkeys/passkeys.ts';
import type { RelyingParty } from './passkeys/relying-party.ts';
import { recoveryCodesLeft, redeemRecoveryCode, replaceRecoveryCodes } from './recovery-codes.ts';
import { removeSignInMethods, resetDetail } from './reset-sign-in.ts';
import { secondFactorRequired } from './second-factor-policy.ts';
import type { AuthenticatedSession, SessionService } from './sessions.ts';
import { liveTicket, spendTicket, type TicketCarries, ticketHolder, ticketProof } from './sign-in-tickets.ts';
import type { LoginThrottle } from './throttle/login-throttle.ts';

export interface SignInMethodsOptions {
  db: Kysely<Database>;
  clock: Clock;
  rp: RelyingParty;
  sessions: SessionService;
  throttle: LoginThrottle;
  audit: AuditLog;
  policy: {
    secondFactor: 'off' | 'writers' | 'everyone';
    refusedUserKeys: ReadonlySet<string>;
    /** PASSWORD_HASH_COST, which recovery codes are hashed with (up to MAX_CODE_HASH_COST). */
    passwordHashCost: number;
  };
  /** Forgets an account's sessions in every process (after its methods were reset). */
  forget: (principalId: number) => void;
  /** How device codes reach the person's devices: as instruction codes do. */
  delivery: TokenDelivery;
}

/** The audit stream's and the history's name of a method. */
const METHOD_REASON: Record<SecondFactorMethod, string> = {
  Passkey: 'passkey',
  RecoveryCode: 'recovery-code',
  DeviceCode: 'device-code',
};

/** What a step-up device code is bound to: the caller's sign-in session, by its bearer token's hash. */
const sessionProof = (session: AuthenticatedSession) => `session:${session.tokenHash}`;

/** The device shows the code in groups of three; what is typed back may have spaces. */
const typedCode = (code: string) => code.replace(/\s/g, '');

const toSent = (sent: { expires: Date; deviceNames: string[] }): DeviceCodeSent => ({
  ExpiresUtc: formatTimestamp(sent.expires),
  Devices: sent.deviceNames,
});

const ticketInvalid = () =>
  new ProblemError(
    401,
    'ticket-invalid',
    'Sign in again',
    'The sign-in ticket is unknown, expired or used already: sign in with your password again.',
  );

/** The second steps a sign-in ticket waits for. */
type SecondStep = SecondFactorMethod | 'TemporaryCode';

/** What a spent ticket hands the session its second step opens (single sign-on's ID token, for signing out there). */
const carriedBy = (spent: TicketCarries | null) => ({
  ...(spent?.oidcIdToken ? { oidcIdToken: spent.oidcIdToken, firstFactor: 'single-sign-on' as const } : {}),
  ...(spent?.pendingGrants ? { pendingGrants: JSON.parse(spent.pendingGrants) as PendingGrants } : {}),
});

const recoveryCodeInvalid = () =>
  new ProblemError(
    401,
    'recovery-code-invalid',
    'Recovery code not accepted',
    'That recovery code is not one of yours, or it was used already. Each works once.',
  );

/**
 * A person's sign-in methods beside the password, and the steps that use them: a passkey sign-in (alone, or the second
 * step after a password), a recovery code as the second step, step-up, and an administrator's reset. Every wrong
 * answer spends the same throttle budgets as a wrong password, and lands in the audit stream and the account history.
 */
export class SignInMethodService {
  private readonly o: SignInMethodsOptions;

  constructor(options: SignInMethodsOptions) {
    this.o = options;
  }

  get relyingParty(): RelyingParty {
    return this.o.rp;
  }

  /** Options for a passkey sign-in: any discoverable passkey, or with a ticket one of that person's. */
  async signInOptions(ticket: string | undefined): Promise<PasskeyOptions> {
    const now = this.o.clock();
    const holder = ticket === undefined ? null : await ticketHolder(this.o.db, ticket, now);
    if (ticket !== undefined && holder === null) throw ticketInvalid();
    return assertionOptions(this.o.db, this.o.rp, 'sign-in', holder, now);
  }

  /** A passkey sign-in: alone (the passkey is both factors), or the second step of a password sign-in. */
  async passkeySignIn(
    response: WebAuthnResponse,
    ticket: string | undefined,
    where: SignInContext,
  ): Promise<LoginResult> {
    const { db, clock, throttle } = this.o;
    const holder = ticket === undefined ? null : await ticketHolder(db, ticket, clock());
    if (ticket !== undefined && holder === null) {
      await this.failed(null, null, 'Passkey', where, ticketInvalid());
      throw ticketInvalid();
    }
    const owner = await passkeyOwner(db, response);
    const person =
      holder !== null
        ? await db
            .selectFrom('principals')
            .select(['id', 'user_name', 'user_key', 'enabled', 'kind'])
            .where('id', '=', holder)
            .executeTakeFirst()
        : owner;
    // An unknown credential still spends the address's budget, under a key of its own.
    const userKey = person?.user_key ?? `passkey\n${response.id.slice(0, 200)}`;
    let refusal: ProblemError | null = null;
    let principalId: number | null = null;
    // A passkey alone is a sign-in like a password; as the second step it spends the account's second-factor budget.
    const attempt = holder === null ? throttle.attempt.bind(throttle) : throttle.attemptSecondFactor.bind(throttle);
    const right = await attempt(userKey, where.clientAddress, async () => {
      try {
        ({ principalId } = await verifyAssertion(this.o, {
          response,
          purpose: 'sign-in',
          principalId: holder,
          now: clock(),
        }));
      } catch (error) {
        if (!(error instanceof PasskeyRefusedError)) throw error;
        refusal = error;
        return false;
      }
      const row = owner ?? person;
      // An API account's passkey (made before they were refused) opens nothing: they sign in with their secret only.
      if (row?.enabled !== 1 || !row || row.kind === 'api' || this.o.policy.refusedUserKeys.has(row.user_key)) {
        refusal = new PasskeyRefusedError('passkey-invalid', principalId);
        return false;
      }
      return true;
    });
    if (!right || principalId === null) {
      const error = (refusal ?? new PasskeyRefusedError('passkey-invalid')) as ProblemError;
      const reason = error instanceof PasskeyRefusedError ? error.reason : error.kind;
      await this.failed(person ?? null, reason, 'Passkey', where, error);
      throw error;
    }
    const userName = (owner ?? person)?.user_name ?? '';
    const proved = principalId;
    return this.completeSecondStep({ ticket, principalId: proved, userName, secondFactor: 'Passkey' }, where, () =>
      this.verified(proved, userName, 'Passkey', where),
    );
  }

  /** The second step of a password sign-in with one of the person's recovery codes. */
  async recoveryCodeSignIn(ticket: string, code: string, where: SignInContext): Promise<LoginResult> {
    const { db, clock, throttle } = this.o;
    const holder = await ticketHolder(db, ticket, clock());
    if (holder === null) {
      await this.failed(null, 'ticket-invalid', 'RecoveryCode', where, ticketInvalid());
      throw ticketInvalid();
    }
    const person = await this.ticketPerson(holder);
    let left: number | null = null;
    const right = await throttle.attemptSecondFactor(person.user_key, where.clientAddress, async () => {
      left = await redeemRecoveryCode(db, holder, code, clock());
      return left !== null;
    });
    if (!right || left === null) {
      await this.failed(person, 'recovery-code-invalid', 'RecoveryCode', where, recoveryCodeInvalid());
      throw recoveryCodeInvalid();
    }
    const codesLeft = left;
    const result = await this.completeSecondStep(
      { ticket, principalId: holder, userName: person.user_name, secondFactor: 'RecoveryCode' },
      where,
      () => this.recoveryCodeUsed(person, codesLeft, where),
    );
    return { ...result, RecoveryCodesLeft: codesLeft };
  }

  /**
   * The second step with a temporary code from the helpdesk: it lets the person in (and add a first passkey), but the
   * session holds no second factor proof, so every step-up still asks for one of their own.
   */
  async temporaryCodeSignIn(ticket: string, code: string, where: SignInContext): Promise<LoginResult> {
    const { db, clock, throttle, audit } = this.o;
    const holder = await ticketHolder(db, ticket, clock());
    if (holder === null) throw ticketInvalid();
    const person = await this.ticketPerson(holder);
    let used: number | null = null;
    // Counted with the person's other second factors: a wrong code here spends the same budget.
    const right = await throttle.attemptSecondFactor(person.user_key, where.clientAddress, async () => {
      used = await useTemporaryCode(
        { db, clock },
        { principalId: holder, typed: code, purpose: 'sign-in', clientAddress: where.clientAddress },
      );
      return used !== null;
    });
    const event = {
      userName: person.user_name,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account' as const, id: person.id },
    };
    if (!right || used === null) {
      audit.record({ ...event, action: 'temporary-code-used', outcome: 'failure', reason: 'temporary-code-invalid' });
      await this.history(
        person.id,
        person.user_name,
        'SecondFactorFailed',
        'temporary-code: temporary-code-invalid',
        where,
      );
      throw temporaryCodeRefused();
    }
    const temporaryCode = used;
    return this.completeSecondStep(
      { ticket, principalId: holder, userName: person.user_name, secondFactor: 'TemporaryCode' },
      where,
      () => audit.record({ ...event, action: 'temporary-code-used', outcome: 'success', details: { temporaryCode } }),
    );
  }

  /** Sends a code to the ticket holder's own Active devices, for the second step of that one password sign-in. */
  async sendSignInCode(ticket: string, where: SignInContext): Promise<DeviceCodeSent> {
    const { db, clock } = this.o;
    const live = await liveTicket(db, ticket, clock());
    if (live === null) throw ticketInvalid();
    const person = await this.owner(live.principalId);
    const binding = { purpose: 'sign-in', proofFor: ticketProof(ticket), notAfter: live.expires } as const;
    return toSent(await this.send(person, binding, where));
  }

  /** The second step of a password sign-in with the code its ticket had sent to the person's devices. */
  async deviceCodeSignIn(ticket: string, code: string, where: SignInContext): Promise<LoginResult> {
    const { db, clock } = this.o;
    const holder = await ticketHolder(db, ticket, clock());
    if (holder === null) {
      await this.failed(null, 'ticket-invalid', 'DeviceCode', where, ticketInvalid());
      throw ticketInvalid();
    }
    const person = await this.owner(holder);
    const refusal = await this.judge(person, 'sign-in', ticketProof(ticket), code, where);
    if (refusal) {
      await this.failed(person, refusal.kind, 'DeviceCode', where, refusal);
      throw refusal;
    }
    return this.completeSecondStep(
      { ticket, principalId: holder, userName: person.user_name, secondFactor: 'DeviceCode' },
      where,
      () => this.verified(holder, person.user_name, 'DeviceCode', where),
    );
  }

  /** The ticket's holder, as the throttle (user key) and the audit and history (name) know them. */
  private ticketPerson(holder: number) {
    return this.o.db
      .selectFrom('principals')
      .select(['id', 'user_name', 'user_key'])
      .where('id', '=', holder)
      .executeTakeFirstOrThrow();
  }

  /**
   * Where every proved sign-in step ends: the ticket is spent (a second use of it is refused even when both were
   * right), the step is recorded its own way, and the session opens. Without a ticket the passkey was the only step.
   */
  private async completeSecondStep(
    step: { ticket: string | undefined; principalId: number; userName: string; secondFactor: SecondStep },
    where: SignInContext,
    record: () => Promise<void> | void,
  ): Promise<LoginResult> {
    const spent = step.ticket === undefined ? null : await spendTicket(this.o.db, step.ticket, this.o.clock());
    if (step.ticket !== undefined && !spent) throw ticketInvalid();
    await record();
    return this.o.sessions.completeFirstFactor(
      {
        principalId: step.principalId,
        secondFactor: step.secondFactor,
        firstFactor: spent === null ? 'passkey' : 'password',
        userName: step.userName,
        ...carriedBy(spent),
      },
      where,
    );
  }

  /** Sends a code to the caller's own Active devices, to type back as a step-up in the same sign-in session. */
  async sendStepUpCode(session: AuthenticatedSession, where: SignInContext): Promise<DeviceCodeSent> {
    const { principal } = session;
    const owner = {
      id: principal.id,
      user_name: principal.userName,
      userName: principal.userName,
      userKey: principal.userKey,
    };
    // The session's deadline as of now: a code outliving it could be shown on the phone but never typed back.
    const stepUp = {
      person: principal.userName,
      approvedAtOrBefore: formatTimestamp(this.o.sessions.lastProofAt(session)),
    };
    const binding = { purpose: 'step-up', proofFor: sessionProof(session), notAfter: session.expires, stepUp } as const;
    return toSent(await this.send(owner, binding, where));
  }

  private async owner(id: number): Promise<DeviceCodeOwner & { id: number; user_name: string }> {
    const row = await this.o.db
      .selectFrom('principals')
      .select(['id', 'user_name', 'user_key'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { id: row.id, user_name: row.user_name, userName: row.user_name, userKey: row.user_key };
  }

  private send(owner: DeviceCodeOwner, binding: DeviceCodeBinding, where: SignInContext) {
    const request = { clientAddress: where.clientAddress, userAgent: where.userAgent ?? null };
    return sendDeviceCode(this.o, { owner, binding, request });
  }

  /** Judges a typed device code under the password's budgets: null when right, else the refusal. */
  private async judge(
    owner: DeviceCodeOwner,
    purpose: DeviceCodePurpose,
    proofFor: string,
    code: string,
    where: SignInContext,
  ): Promise<ProblemError | null> {
    let refusal: ProblemError | null = null;
    await this.o.throttle.attemptSecondFactor(owner.userKey, where.clientAddress, async () => {
      refusal = await judgeDeviceCode(this.o, { owner, purpose, proofFor, code: typedCode(code) });
      return refusal === null;
    });
    return refusal;
  }

  stepUpOptions(session: AuthenticatedSession): Promise<PasskeyOptions> {
    return assertionOptions(this.o.db, this.o.rp, 'step-up', session.principal.id, this.o.clock());
  }

  /** Proves a second factor again in this session: step-up actions work for STEP_UP_MINUTES after. */
  async stepUp(session: AuthenticatedSession, proof: StepUpProof, where: SignInContext): Promise<StepUpResult> {
    const { db, clock, throttle } = this.o;
    const sent = [proof.Passkey, proof.RecoveryCode, proof.DeviceCode].filter((part) => part !== undefined);
    if (sent.length !== 1) {
      const message = 'send one of Passkey, RecoveryCode or DeviceCode';
      throw new ProblemError(400, 'validation', 'Invalid request', 'Send one of Passkey, RecoveryCode or DeviceCode.', {
        extensions: { errors: [{ path: 'Passkey', message }] },
      });
    }
    const { principal } = session;
    const method: SecondFactorMethod = proof.Passkey ? 'Passkey' : proof.RecoveryCode ? 'RecoveryCode' : 'DeviceCode';
    let refusal: ProblemError | null = null;
    let left: number | null = null;
    if (proof.DeviceCode !== undefined) {
      const owner = { userName: principal.userName, userKey: principal.userKey };
      refusal = await this.judge(owner, 'step-up', sessionProof(session), proof.DeviceCode, where);
    }
    const right =
      proof.DeviceCode !== undefined
        ? refusal === null
        : await throttle.attemptSecondFactor(principal.userKey, where.clientAddress, async () => {
            if (proof.Passkey) {
              try {
                await verifyAssertion(this.o, {
                  response: proof.Passkey,
                  purpose: 'step-up',
                  principalId: principal.id,
                  now: clock(),
                });
                return true;
              } catch (error) {
                if (!(error instanceof PasskeyRefusedError)) throw error;
                refusal = error;
                return false;
              }
            }
            left = await redeemRecoveryCode(db, principal.id, proof.RecoveryCode ?? '', clock());
            if (left === null) refusal = recoveryCodeInvalid();
            return left !== null;
          });
    const person = { id: principal.id, user_name: principal.userName };
    if (!right) {
      const error = refusal ?? recoveryCodeInvalid();
      await this.failed(person, error instanceof PasskeyRefusedError ? error.reason : error.kind, method, where, error);
      throw error;
    }
    if (left !== null) await this.recoveryCodeUsed(person, left, where);
    const at = await this.o.sessions.secondFactorVerified(session, PROOF_OF_METHOD[method]);
    this.o.audit.record({
      action: 'step-up',
      outcome: 'success',
      reason: METHOD_REASON[method],
      userName: principal.userName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id: principal.id },
    });
    await this.history(principal.id, principal.userName, 'StepUp', METHOD_REASON[method], where);
    return { StepUpUntilUtc: formatTimestamp(this.o.sessions.stepUpUntil(at)), Method: method };
  }

  async ownMethods(principal: Principal): Promise<SignInMethods> {
    const { db } = this.o;
    // Active push users of the person: the devices their codes go to.
    const devices = await db
      .selectFrom('push_message_users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_key', '=', principal.userKey)
      .where('status', '=', PushUserStatusCode.Active)
      .executeTakeFirstOrThrow();
    return {
      Passkeys: await listPasskeys(db, principal.id),
      RecoveryCodesLeft: await recoveryCodesLeft(db, principal.id),
      ActiveDevices: Number(devices.n),
      SecondFactorRequired: secondFactorRequired(this.o.policy.secondFactor, principal),
      PasskeysUnavailable: this.o.rp.unavailable,
    };
  }

  /**
   * Changing one's methods while one has a second factor needs it proved recently (a session left open must not be
   * enough to add the thief's passkey); a session that has none yet adds its first without.
   */
  private requireRecentProof(session: AuthenticatedSession): Promise<void> {
    return this.o.sessions.requireStepUpUnlessFirstFactor(session);
  }

  /** API accounts sign in with their secret, from scripts: a passkey would be a way into the browser. */
  private refuseApiAccount(session: AuthenticatedSession): void {
    if (session.principal.kind !== 'Api') return;
    throw new ProblemError(
      403,
      'api-account-passkey',
      'API accounts have no passkeys',
      `${session.principal.userName} is an API account: it signs in with its secret only, never with a passkey.`,
    );
  }

  async registrationOptions(session: AuthenticatedSession): Promise<PasskeyOptions> {
    this.refuseApiAccount(session);
    await this.requireRecentProof(session);
    return registrationOptions(this.o.db, this.o.rp, session.principal, this.o.clock());
  }

  async addPasskey(
    session: AuthenticatedSession,
    name: string,
    response: WebAuthnResponse,
    where: SignInContext,
  ): Promise<Passkey> {
    this.refuseApiAccount(session);
    await this.requireRecentProof(session);
    const { principal } = session;
    const passkey = await addPasskey(this.o, {
      principalId: principal.id,
      name,
      response,
      now: this.o.clock(),
      addedBy: principal.userName,
    });
    await this.added(principal, 'Passkey', `passkey "${name}"`, where);
    // The new passkey verified the person as it was made: a session that could only add a method goes on in full.
    await this.o.sessions.secondFactorVerified(session, 'passkey');
    return passkey;
  }

  async renamePasskey(session: AuthenticatedSession, id: number, name: string): Promise<Passkey> {
    return renamePasskey(this.o.db, session.principal.id, id, name);
  }

  async removePasskey(session: AuthenticatedSession, id: number, where: SignInContext): Promise<void> {
    const { principal } = session;
    const owned = await this.o.db
      .selectFrom('passkeys')
      .select('id')
      .where('id', '=', id)
      .where('principal_id', '=', principal.id)
      .executeTakeFirst();
    if (!owned) throw notFound('Passkey', id);
    if ((await passkeyCount(this.o.db, principal.id)) === 1) {
      const refusal = this.o.sessions.stepUpRefusal(session);
      if (refusal) throw refusal;
    }
    const name = await removePasskey(this.o.db, principal.id, id);
    this.o.audit.record({
      action: 'second-factor-removed',
      outcome: 'success',
      reason: 'passkey',
      userName: principal.userName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id: principal.id },
    });
    await this.history(principal.id, principal.userName, 'SecondFactorRemoved', `passkey "${name}"`, where);
  }

  async newRecoveryCodes(session: AuthenticatedSession, where: SignInContext): Promise<string[]> {
    await this.requireRecentProof(session);
    const codes = await replaceRecoveryCodes(this.o.db, {
      principalId: session.principal.id,
      now: this.o.clock(),
      addedBy: session.principal.userName,
      passwordHashCost: this.o.policy.passwordHashCost,
    });
    await this.added(session.principal, 'RecoveryCode', 'recovery codes', where);
    if (session.enrolmentOnly) await this.o.sessions.secondFactorVerified(session, 'recovery-code');
    return codes;
  }

  /**
   * An administrator's recovery for a person: their passkeys, recovery codes and devices go (a device's credential
   * ends, so a phone someone planted is no second step any more; its push user stops receiving codes), their
   * enrolments under way are rejected, and their sessions end. `containment`: the helpdesk reset it by Contain (the
   * audit stream says so).
   */
  async reset(id: number, actor: Principal, where: SignInContext, containment = false): Promise<SignInMethodsReset> {
    const now = this.o.clock();
    const event = {
      action: 'sign-in-methods-reset',
      outcome: 'success',
      userName: actor.userName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id },
    } as const;
    // The alerts the reset causes are written in its transaction (AuditLog.change).
    const outcome = await this.o.audit.change(event, () =>
      writeAndPublish(
        this.o.db,
        this.o.delivery.changes,
        async (trx) => {
          const row = await trx.selectFrom('principals').select('user_name').where('id', '=', id).executeTakeFirst();
          if (!row) throw notFound('Account', id);
          const gone = await removeSignInMethods(trx, id, now, actor.userName);
          const result: SignInMethodsReset = {
            PasskeysRemoved: gone.passkeys,
            RecoveryCodesRemoved: gone.recoveryCodes,
            DevicesRemoved: gone.devices,
          };
          await recordAccountHistory(trx, {
            principalId: id,
            userName: row.user_name,
            action: 'SignInMethodsReset',
            detail: resetDetail(gone),
            changedBy: actor.userName,
            clientAddress: where.clientAddress,
            at: now,
          });
          return { userName: row.user_name, removed: result, events: gone.events };
        },
        ({ events }) => events,
      ),
    );
    if (!outcome.ok) throw outcome.error;
    const { userName, removed } = outcome.value;
    this.o.forget(id);
    await this.o.audit.record(
      {
        ...event,
        details: {
          account: userName,
          devicesRemoved: removed.DevicesRemoved,
          ...(containment ? { containment: true } : {}),
        },
      },
      outcome.carried,
    );
    return removed;
  }

  private async added(principal: Principal, method: SecondFactorMethod, detail: string, where: SignInContext) {
    this.o.audit.record({
      action: 'second-factor-added',
      outcome: 'success',
      reason: METHOD_REASON[method],
      userName: principal.userName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id: principal.id },
    });
    await this.history(principal.id, principal.userName, 'SecondFactorAdded', detail, where);
  }

  private async verified(principalId: number, userName: string, method: SecondFactorMethod, where: SignInContext) {
    this.o.audit.record({
      action: 'second-factor-verified',
      outcome: 'success',
      reason: METHOD_REASON[method],
      userName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id: principalId },
    });
    await this.history(principalId, userName, 'SecondFactorVerified', METHOD_REASON[method], where);
  }

  private async recoveryCodeUsed(person: { id: number; user_name: string }, left: number, where: SignInContext) {
    this.o.audit.record({
      action: 'recovery-code-used',
      outcome: 'success',
      reason: 'recovery-code',
      userName: person.user_name,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: { type: 'Account', id: person.id },
      details: { left },
    });
    await this.history(person.id, person.user_name, 'RecoveryCodeUsed', `${left} left`, where);
    await this.verified(person.id, person.user_name, 'RecoveryCode', where);
  }

  /** A refused second factor: audited with its method and cause, and in the person's history when they are known. */
  private async failed(
    person: { id: number; user_name: string } | null,
    cause: string | null,
    method: SecondFactorMethod,
    where: SignInContext,
    error: ProblemError,
  ): Promise<void> {
    this.o.audit.record({
      action: 'second-factor-failed',
      outcome: 'failure',
      reason: METHOD_REASON[method],
      userName: person?.user_name ?? null,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
      entity: person ? { type: 'Account', id: person.id } : null,
      details: { cause: cause ?? error.kind },
    });
    if (person) {
      const detail = `${METHOD_REASON[method]}: ${cause ?? error.kind}`;
      await this.history(person.id, person.user_name, 'SecondFactorFailed', detail, where);
    }
  }

  private history(
    principalId: number,
    userName: string,
    action:
      | 'SecondFactorAdded'
      | 'SecondFactorRemoved'
      | 'SecondFactorVerified'
      | 'SecondFactorFailed'
      | 'RecoveryCodeUsed'
      | 'StepUp',
    detail: string,
    where: SignInContext,
  ): Promise<void> {
    return recordAccountHistoryFrom(this.o.db, where, { principalId, userName, action, detail, at: this.o.clock() });
  }
}
