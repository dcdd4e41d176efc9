import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppOptions, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase, SQLITE_FILE_NAME } from '../db/database.ts';
import type { TokenPushSender } from '../domain/delivery/token-delivery.ts';
import { createTestDatabase, testDatabaseServer } from '../test/test-database.ts';
import { DEMO_VAPID_SUBJECT, loadVapidKeys, pushKeyOf, VAPID_KEY_FILE_NAME } from './vapid-keys.ts';

const clock = () => new Date('2026-11-21T09:00:00.000Z');
const PUBLIC_KEY = `B${'A'.repeat(86)}`;
const PRIVATE_KEY = 'A'.repeat(43);

describe('the VAPID key pair', () => {
  let handles: DatabaseHandle[] = [];
  const open = async (options: Parameters<typeof openDatabase>[0] = { sqliteFile: ':memory:' }) => {
    const handle = openDatabase(options);
    handles.push(handle);
    await migrateToLatest(handle);
    return handle;
  };
  afterEach(async () => {
    for (const handle of handles) await handle.close();
    handles = [];
  });

  it('is generated at the first start, kept in the database, and the same at every start after', async () => {
    const { db } = await open();
    const config = loadConfig({ DEMO: 'off', VAPID_SUBJECT: 'mailto:security@acme.example' });
    const first = await loadVapidKeys(db, config, clock);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(await loadVapidKeys(db, config, clock)).toEqual(first);
    expect(first).toMatchObject({ subject: 'mailto:security@acme.example', offReason: null });
    expect(pushKeyOf(first, true)).toEqual({ PublicKey: first.publicKey, WebPushEnabled: true, Reason: null });
  });

  it('lives in a file in DATA_DIR (mode 0600) with the embedded database; a pair the database held moves there', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-vapid-'));
    try {
      const keyFile = path.join(dataDir, VAPID_KEY_FILE_NAME);
      const { db } = await open({ sqliteFile: path.join(dataDir, SQLITE_FILE_NAME) });
      const config = loadConfig({ DEMO: 'off', VAPID_SUBJECT: 'mailto:security@acme.example' });
      // As a service before the key file kept it: in the database.
      const before = await loadVapidKeys(db, config, clock);
      const rows = () => db.selectFrom('service_keys').select('name').execute();
      expect(await rows()).toEqual([{ name: 'vapid' }]);

      const moved = await loadVapidKeys(db, config, clock, keyFile);
      expect(moved).toEqual(before);
      expect(await rows()).toEqual([]);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(keyFile, 'utf8'))).toEqual({
        publicKey: before.publicKey,
        privateKey: before.privateKey,
      });
      expect(await loadVapidKeys(db, config, clock, keyFile)).toEqual(before);

      // A service on its own file makes the pair there from the first start.
      await handles.pop()?.close();
      fs.rmSync(keyFile);
      const app = await buildApp({ config: { ...config, dataDir, webRoot: null }, pushSender: null });
      await app.close();
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const reopened = await open({ sqliteFile: path.join(dataDir, SQLITE_FILE_NAME) });
      expect(await reopened.db.selectFrom('service_keys').select('name').execute()).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('comes from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set', async () => {
    const { db } = await open();
    const config = loadConfig({ DEMO: 'off', VAPID_PUBLIC_KEY: PUBLIC_KEY, VAPID_PRIVATE_KEY: PRIVATE_KEY });
    expect(await loadVapidKeys(db, config, clock)).toMatchObject({ publicKey: PUBLIC_KEY, privateKey: PRIVATE_KEY });
  });

  it('is off without VAPID_SUBJECT outside demo mode, saying why; demo mode signs with its own subject', async () => {
    const { db } = await open();
    const off = await loadVapidKeys(db, loadConfig({ DEMO: 'off' }), clock);
    expect(off.subject).toBeNull();
    expect(off.offReason).toMatch(/VAPID_SUBJECT/);
    expect(pushKeyOf(off, true)).toMatchObject({ WebPushEnabled: false, Reason: off.offReason });
    const demo = await loadVapidKeys(db, loadConfig({ DEMO: 'on' }), clock);
    expect(demo).toMatchObject({ subject: DEMO_VAPID_SUBJECT, offReason: null, publicKey: off.publicKey });
    expect(DEMO_VAPID_SUBJECT).not.toMatch(/localhost/);
  });

  it.runIf(testDatabaseServer() !== null)(
    'is one pair for processes starting together on one PostgreSQL',
    async () => {
      const server = testDatabaseServer() ?? '';
      const database = await createTestDatabase(server);
      try {
        const first = await open({ databaseUrl: database.url });
        const second = openDatabase({ databaseUrl: database.url });
        handles.push(second);
        const config = loadConfig({ DEMO: 'off', VAPID_SUBJECT: 'https://acme.example/security' });
        const [a, b] = await Promise.all([
          loadVapidKeys(first.db, config, clock),
          loadVapidKeys(second.db, config, clock),
        ]);
        expect(b).toEqual(a);
      } finally {
        for (const handle of handles) await handle.close();
        handles = [];
        await database.drop();
      }
    },
    20_000,
  );
});

describe('the start-up log', () => {
  const startLog = async (env: NodeJS.ProcessEnv, pushSender?: AppOptions['pushSender']) => {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const database = openDatabase({ sqliteFile: ':memory:' });
    const app = await buildApp(
      { config: { ...loadConfig(env), webRoot: null }, database, ...(pushSender !== undefined ? { pushSender } : {}) },
      { level: 'info', stream },
    );
    await app.close();
    await database.close();
    return lines.filter((line) => line.msg.startsWith('Web Push'));
  };
  const sender: TokenPushSender = { send: () => undefined };

  it('says Web Push is off, and why, without VAPID_SUBJECT outside demo mode', async () => {
    expect(await startLog({ DEMO: 'off' }, sender)).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('VAPID_SUBJECT') }),
    ]);
  });

  it("says so too when the process has no sender, and says it is on with the service's own sender", async () => {
    const env = { DEMO: 'off', VAPID_SUBJECT: 'mailto:security@acme.example' };
    expect(await startLog(env, null)).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('no push sender') }),
    ]);
    expect(await startLog(env)).toEqual([expect.objectContaining({ level: 30, msg: 'Web Push is on' })]);
    expect(await startLog(env, sender)).toEqual([expect.objectContaining({ level: 30, msg: 'Web Push is on' })]);
  });
});
