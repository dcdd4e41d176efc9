import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../audit/audit-log.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../db/database.ts';
import { AuditLines } from '../../test/audit-lines.ts';
import { FakeClock } from '../../test/harness.ts';
import { upsertPrincipal } from '../identity/principals.ts';
import { SessionService } from './sessions.ts';
import { LoginThrottle } from './throttle/login-throttle.ts';

const HASH_COST = 1024;
const PERSON = { userName: 'CORP\\kim', password: 'violet harbour lantern 42' };

describe('sessions ending at their deadline, in the audit stream', () => {
  let database: DatabaseHandle;
  let clock: FakeClock;
  let lines: AuditLines;
  let sessions: SessionService;

  beforeEach(async () => {
    database = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    clock = new FakeClock();
    await upsertPrincipal(database.db, { ...PERSON, grants: [], now: clock.now() }, HASH_COST);
    lines = new AuditLines();
    const throttle = new LoginThrottle({
      failuresPerUser: 5,
      failuresPerAddress: 20,
      windowSeconds: 300,
      slowAfterFailures: 20,
      slowSeconds: 5,
    });
    sessions = new SessionService(
      database.db,
      clock.now,
      { idleMinutes: 30, absoluteHours: 12, passwordHashCost: HASH_COST, audit: new AuditLog(lines, clock.now) },
      throttle,
    );
  });
  afterEach(async () => {
    await database.close();
  });

  const signIn = () => sessions.login({ UserName: PERSON.userName, Password: PERSON.password }, '192.0.2.1');

  it('the purge tells of sessions that reached a deadline unused, once, and not of those already told', async () => {
    await signIn();
    const presented = await signIn();
    clock.advanceMinutes(31);
    // One is presented after its deadline: ended (and told) at once.
    expect(await sessions.authenticate(presented.Token)).toBeNull();
    await expect.poll(() => lines.of('session-ended').length).toBe(1);
    expect(await sessions.purgeEnded()).toBe(2);
    const ended = lines.of('session-ended');
    expect(ended).toHaveLength(2);
    expect(ended.map((record) => record.tachyon?.details?.cause)).toEqual(['idle-timeout', 'idle-timeout']);
    expect(ended.every((record) => record.user?.name === PERSON.userName)).toBe(true);
    expect(await sessions.purgeEnded()).toBe(0);
    expect(lines.of('session-ended')).toHaveLength(2);
  });

  it('names the absolute deadline when a session outlived it while kept busy', async () => {
    const { Token } = await signIn();
    for (let hour = 0; hour < 12; hour++) {
      clock.advanceMinutes(29);
      await sessions.authenticate(Token);
      clock.advanceMinutes(29);
      await sessions.authenticate(Token);
    }
    clock.advanceMinutes(60);
    await sessions.purgeEnded();
    expect(lines.of('session-ended').map((record) => record.tachyon?.details?.cause)).toEqual(['absolute-timeout']);
  });
});
