import { createECDH, randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import {
  type AuthorizationRequest,
  AuthorizationRequest as AuthorizationRequestSchema,
  type DeviceEnrollmentResult,
  DeviceEnrollmentResult as DeviceEnrollmentResultSchema,
  type DeviceState,
  DeviceState as DeviceStateSchema,
  type PushSubscriptionInput,
} from '../../shared/contract/index.ts';
import type { Config } from '../config.ts';
import { directReaderOf } from '../db/direct-reader.ts';
import type { Database } from '../db/schema.ts';
import type {
  DeviceNoticeMessage,
  TokenPushMessage,
  TokenPushSender,
  TokenPushTarget,
} from '../domain/delivery/token-delivery.ts';
import { createTestApp, parseBody, type TestApp } from './harness.ts';

/** A Web Push sender that sends nothing and remembers what it was asked to send, and whether that had committed. */
export class RecordingPushSender implements TokenPushSender {
  readonly sent: Array<{ targets: readonly TokenPushTarget[]; message: TokenPushMessage; committed: boolean }> = [];
  private readonly pending: Array<Promise<void>> = [];
  private db: Kysely<Database> | null = null;

  /** The database to check commits against (the test app's); set once the app exists. */
  watch(db: Kysely<Database>): void {
    this.db = db;
  }

  send(targets: readonly TokenPushTarget[], message: TokenPushMessage): void {
    const entry = { targets, message, committed: false };
    this.sent.push(entry);
    this.pending.push(
      this.committed(message.instructionId).then((committed) => {
        entry.committed = committed;
      }),
    );
  }

  /** The notices of new devices it was asked to push, in order. */
  readonly notices: Array<{ targets: readonly TokenPushTarget[]; notice: DeviceNoticeMessage }> = [];

  sendNotice(targets: readonly TokenPushTarget[], notice: DeviceNoticeMessage): void {
    this.notices.push({ targets, notice });
  }

  /** Waits for the commit checks of every send so far. */
  async settled(): Promise<this> {
    await Promise.all(this.pending);
    return this;
  }

  /**
   * Whether the instruction's row is visible outside any open transaction at the moment send() is called: on SQLite
   * the direct reader answers synchronously and refuses (null) while a transaction is open on the one connection; on
   * PostgreSQL it reads on another pool connection, which sees only committed rows.
   */
  private async committed(instructionId: number): Promise<boolean> {
    const db = this.db;
    if (!db) throw new Error('RecordingPushSender: call watch(db) first');
    const reader = directReaderOf(db);
    if (!reader) throw new Error('RecordingPushSender: no direct reader');
    const query = db.selectFrom('instructions').select('id').where('id', '=', instructionId).compile();
    const rows = reader.read(query.sql, query.parameters);
    if (rows === null) return false;
    return (await rows).length === 1;
  }
}

/** A subscription as a browser makes it: a real P-256 public key and a random 16-byte auth secret. */
export function browserSubscription(endpoint: string): PushSubscriptionInput {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** inject() as a device: its credential in `Authorization: Device`. */
export function deviceCall(t: TestApp, deviceToken: string, options: InjectOptions): Promise<LightMyRequestResponse> {
  return t.call({ ...options, headers: { authorization: `Device ${deviceToken}`, ...options.headers } });
}

export const PHONE = { DeviceType: 'iOS', Manufacturer: 'Apple', Model: 'iPhone 16', OsVersion: '18.4' } as const;

/** Enrols a device as the signed-in person (or with a code), expecting 201. */
export async function enrollDevice(
  t: TestApp,
  credentials: { token: string } | { code: string },
  body: Record<string, unknown> = PHONE,
): Promise<DeviceEnrollmentResult> {
  const response = await t.call({
    method: 'POST',
    url: '/api/Device/Enrollments',
    ...('token' in credentials ? { token: credentials.token } : {}),
    payload: 'code' in credentials ? { ...body, EnrollmentCode: credentials.code } : body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return parseBody(response, DeviceEnrollmentResultSchema);
}

/** #5 by someone with Security Write: authorizes (or rejects) the enrolment's request. */
export async function decide(
  t: TestApp,
  adminToken: string,
  enrolled: DeviceEnrollmentResult,
  authorized = true,
): Promise<AuthorizationRequest> {
  const response = await t.call({
    method: 'POST',
    url: '/api/Consumer/Authentication/AuthorizeDevice',
    token: adminToken,
    payload: { RequestId: enrolled.AuthorizationRequestId, RequestGuid: enrolled.RequestGuid, Authorized: authorized },
  });
  expect(response.statusCode, response.body).toBe(200);
  return parseBody(response, AuthorizationRequestSchema);
}

export async function deviceStateOf(t: TestApp, deviceToken: string): Promise<DeviceState> {
  const response = await deviceCall(t, deviceToken, { method: 'GET', url: '/api/Device' });
  expect(response.statusCode, response.body).toBe(200);
  return parseBody(response, DeviceStateSchema);
}

/** The bootstrap administrator of a deployment with demo mode off, who decides in the queue. */
export const ACME_ADMIN = ['ACME\\admin', 'Quiet lantern harbour 42'] as const;
/** An on-premises push service the operator listed: the one origin that may be http on loopback. */
export const PUSH_ORIGIN = 'http://127.0.0.1:9';

/** A deployment with demo mode off: no demo data, no demo actors, a bootstrap admin, Web Push to PUSH_ORIGIN. */
export const REAL_DEPLOYMENT = {
  demo: false,
  adminUserName: ACME_ADMIN[0],
  adminPassword: ACME_ADMIN[1],
  vapidSubject: 'mailto:security@acme.example',
  pushAllowOrigins: [PUSH_ORIGIN],
} satisfies Partial<Config>;

/**
 * A REAL_DEPLOYMENT app (with `overrides`) whose Web Push goes to a recording sender, `people` added without
 * permissions, and the admin signed in. The caller closes it.
 */
export async function createRealDeployment(
  people: ReadonlyArray<readonly [string, string]>,
  overrides: Partial<Config> = {},
): Promise<{ t: TestApp; sender: RecordingPushSender; admin: string }> {
  const sender = new RecordingPushSender();
  const t = await createTestApp({ ...REAL_DEPLOYMENT, ...overrides }, { pushSender: sender });
  sender.watch(t.database.db);
  for (const [userName, password] of people) await t.addPrincipal(userName, password, []);
  return { t, sender, admin: await t.login(...ACME_ADMIN) };
}

/** An enrolment approved and subscribed to Web Push: the device, its subscription and the push user it is. */
export interface ApprovedDevice extends DeviceEnrollmentResult {
  subscription: PushSubscriptionInput;
  pushUserId: number;
}

/**
 * A device as its person uses it: enrolled (signed in, or with a link's code), approved by someone with Security
 * Write and subscribed to Web Push at an endpoint of its own under PUSH_ORIGIN: an Active device.
 */
export async function approvedDevice(
  t: TestApp,
  adminToken: string,
  credentials: { token: string } | { code: string },
  body: Record<string, unknown> = PHONE,
): Promise<ApprovedDevice> {
  const enrolled = await enrollDevice(t, credentials, body);
  await decide(t, adminToken, enrolled);
  const subscription = browserSubscription(`${PUSH_ORIGIN}/push/${enrolled.AuthorizationRequestId}`);
  const stored = await deviceCall(t, enrolled.DeviceToken, {
    method: 'PUT',
    url: '/api/Device/PushSubscription',
    payload: subscription,
  });
  expect(stored.statusCode, stored.body).toBe(204);
  const { PushMessageUserId } = await deviceStateOf(t, enrolled.DeviceToken);
  if (PushMessageUserId === null) throw new Error('approved without a push user');
  return { ...enrolled, subscription, pushUserId: PushMessageUserId };
}

/** #10 by someone with Security Write: a push user's new Status (1 Active, 2 Disabled, 3 Deleted), expecting 200. */
export async function setPushUserStatus(
  t: TestApp,
  adminToken: string,
  id: number | null,
  status: number,
): Promise<void> {
  if (id === null) throw new Error('no push user to change');
  const response = await t.call({
    method: 'PUT',
    url: '/api/Consumer/PushMessageUsers',
    token: adminToken,
    payload: { Id: id, Status: status },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Rows of a table, for "nothing was stored" checks. */
export async function countRows(t: TestApp, table: keyof Database): Promise<number> {
  const row = await t.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
