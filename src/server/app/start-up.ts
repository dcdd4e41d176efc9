import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase, SQLITE_FILE_NAME } from '../db/database.ts';
import type { AccountService } from '../domain/accounts/accounts.ts';
import { bootstrapAdmin } from '../domain/accounts/bootstrap-admin.ts';
import {
  retireDemoCreatedAccounts,
  retireDemoPrincipals,
  seedDemoDataIfEmpty,
  seedDemoPrincipals,
} from '../domain/demo/demo-data.ts';
import { userKeyOf } from '../domain/identity/principals.ts';
import type { Clock } from '../lib/clock.ts';
import type { AppOptions } from './options.ts';

/** Ended sessions and lapsed known clients are deleted this often (and at start). */
const PURGE_INTERVAL_MS = 15 * 60_000;

/** The database the options give, else the one the config names (closed with the app); migrated to the latest. */
export async function openAppDatabase(fastify: FastifyInstance, options: AppOptions): Promise<DatabaseHandle> {
  const { config } = options;
  const database =
    options.database ??
    openDatabase(
      config.databaseUrl
        ? { databaseUrl: config.databaseUrl }
        : { sqliteFile: `${config.dataDir}/${SQLITE_FILE_NAME}` },
    );
  if (!options.database) fastify.addHook('onClose', () => database.close());
  await migrateToLatest(database);
  return database;
}

/** Demo mode seeds its people and data; outside it, what demo mode made is retired. */
export async function seedOrRetireDemo(
  fastify: FastifyInstance,
  { db }: DatabaseHandle,
  config: Config,
  clock: Clock,
): Promise<void> {
  if (config.demo) {
    await seedDemoPrincipals(db, clock, config.passwordHashCost);
    await seedDemoDataIfEmpty(db, clock);
    return;
  }
  await retireDemoPrincipals(db, clock);
  const adminKey = config.adminUserName ? userKeyOf(config.adminUserName) : null;
  const retired = await retireDemoCreatedAccounts(db, clock, adminKey);
  if (retired.length > 0) {
    fastify.log.warn(
      { accounts: retired },
      `Disabled ${retired.length} account(s) created while demo mode was on, and ended their sessions: ` +
        `${retired.join(', ')}. Anyone could create them with the published demo passwords. ` +
        'An account administrator may enable one again after checking it.',
    );
  }
}

/** ADMIN_USERNAME / ADMIN_PASSWORD: the first administrator, made or brought up to date at every start. */
export async function bootstrapAdminAccount(
  fastify: FastifyInstance,
  { db }: DatabaseHandle,
  config: Config,
  clock: Clock,
): Promise<void> {
  if (!config.adminUserName || !config.adminPassword) return;
  const admin = { userName: config.adminUserName, password: config.adminPassword };
  const state = await bootstrapAdmin(
    db,
    clock,
    { ...admin, forceEnable: config.adminForceEnable },
    config.passwordHashCost,
  );
  if (state === 'disabled') {
    fastify.log.warn(
      { account: admin.userName },
      `ADMIN_USERNAME ${admin.userName} is disabled (an account administrator disabled it) and cannot sign in. ` +
        'It stays disabled; to enable it again, start once with ADMIN_FORCE_ENABLE=on, or ask an account administrator.',
    );
  } else if (state === 're-enabled') {
    fastify.log.warn(
      { account: admin.userName },
      `ADMIN_USERNAME ${admin.userName} was disabled and is enabled again because ADMIN_FORCE_ENABLE is on. ` +
        'Turn ADMIN_FORCE_ENABLE off, or every start will undo a "Disable".',
    );
  }
}

/** Runs the purge now and every PURGE_INTERVAL_MS until the app closes. */
export async function schedulePurges(fastify: FastifyInstance, purgeAll: () => Promise<void>): Promise<void> {
  await purgeAll();
  const purge = setInterval(() => {
    purgeAll().catch((error: unknown) => fastify.log.warn({ err: error }, 'purging ended records failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  fastify.addHook('onClose', () => clearInterval(purge));
}

/** Local accounts a directory person of the same name is shadowed by, said once at start. */
export async function warnOfLocalAccountsInDirectory(
  fastify: FastifyInstance,
  accounts: AccountService,
  config: Config,
): Promise<void> {
  if (!config.directory) return;
  const inside = await accounts.localInsideDirectoryDomain();
  if (inside.length > 0) {
    fastify.log.warn(
      { accounts: inside },
      `Local accounts inside LDAP_DOMAIN (${config.directory.domain}): ${inside.join(', ')}. Each keeps its own ` +
        'password and permissions, and the directory person of the same name cannot sign in while it exists. ' +
        'The Accounts page marks them.',
    );
  }
}
