import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertDeliveryList, AlertDestinationWithSecret } from '../../shared/contract/index.ts';
import { ADMIN, OPERATOR } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../test/test-database.ts';
import { WebhookReceiver } from '../test/webhook-receiver.ts';

/**
 * The alerts outbox survives a SIGKILL: the built service as a real process queues alerts its receiver refuses, is
 * killed with them outstanding, and once started again delivers each, with the webhook-id it had, in order.
 */
const POSTGRES_SERVER = testDatabaseServer();
const ALERTS = 5;

async function call(api: string, method: string, route: string, token?: string, payload?: unknown) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function login(api: string, [UserName, Password]: readonly [string, string]): Promise<string> {
  const answer = await call(api, 'POST', '/Consumer/Authentication', undefined, { UserName, Password });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status}`);
  return (answer.body as { Token: string }).Token;
}

describe(`alerts outstanding at a SIGKILL (${POSTGRES_SERVER ? 'PostgreSQL' : 'embedded SQLite'})`, () => {
  let dataDir: string;
  let database: TestDatabase | null = null;
  let service: ServiceProcess | null = null;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ensureServerBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-alerts-'));
    if (POSTGRES_SERVER) database = await createTestDatabase(POSTGRES_SERVER);
    receiver = await WebhookReceiver.start();
  }, 120_000);

  afterAll(async () => {
    await stopService(service);
    await receiver.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_DIR: dataDir,
    DEMO: 'on',
    PASSWORD_HASH_COST: '1024',
    LOGIN_RATE_PER_MINUTE: '100000',
    ALERT_WEBHOOK_ALLOW_ORIGINS: receiver.origin,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });

  it('delivers each alert once it is back, with the webhook-id it had, in order', async () => {
    receiver.status = 503;
    service = await startService(env());
    const admin = await login(service.api, ADMIN);
    const made = await call(service.api, 'POST', '/Admin/Alerts/Destinations', admin, {
      Name: 'SIEM',
      Channel: 'Webhook',
      Target: `${receiver.origin}/siem`,
      Events: ['PermissionsChanged'],
    });
    expect(made.status).toBe(201);
    const destination = AlertDestinationWithSecret.parse(made.body);
    receiver.secret = destination.Secret;
    const accounts = (await call(service.api, 'GET', '/Admin/Accounts', admin)).body as Array<{
      Id: number;
      UserName: string;
    }>;
    const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
    for (let change = 0; change < ALERTS; change += 1) {
      const answer = await call(service.api, 'PUT', `/Admin/Accounts/${operator?.Id}/Permissions`, admin, {
        Permissions: { Security: change % 2 === 0 ? ['Read'] : [], Accounts: [] },
      });
      expect(answer.status).toBe(200);
    }
    const logOf = async (api: string, token: string) =>
      AlertDeliveryList.parse(
        (await call(api, 'GET', `/Admin/Alerts/Destinations/${destination.Id}/Deliveries`, token)).body,
      );
    // Every alert is in the outbox, and the receiver has refused the first at least once.
    await expect
      .poll(
        async () => {
          const log = await logOf(service?.api ?? '', admin);
          return log.length === ALERTS && log.some((entry) => entry.LastError !== null);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const queued = (await logOf(service.api, admin)).reverse();
    expect(queued.every((entry) => entry.Status === 'Pending')).toBe(true);

    service.child.kill('SIGKILL');
    expect(await service.exited).toBe('SIGKILL');
    receiver.status = 200;
    service = await startService(env());

    await receiver.waitFor(ALERTS, 60_000);
    const firstArrivals = [...new Set(receiver.received.map((hook) => hook.headers['webhook-id']))];
    expect(firstArrivals).toEqual(queued.map((entry) => entry.MessageId));
    expect(receiver.received.every((hook) => hook.signatureValid)).toBe(true);
    const again = await login(service.api, ADMIN);
    await expect
      .poll(async () => (await logOf(service?.api ?? '', again)).every((entry) => entry.Status === 'Delivered'), {
        timeout: 10_000,
      })
      .toBe(true);
  }, 120_000);
});
