import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.ts';
import * as initial from './001-initial.ts';
import * as history from './002-history.ts';
import * as pushUserDevice from './003-push-user-device.ts';
import * as accounts from './004-accounts.ts';
import * as hardening from './005-hardening.ts';
import * as knownClients from './006-known-clients.ts';
import * as demoCreatedAccounts from './007-demo-created-accounts.ts';
import * as devices from './008-devices.ts';
import * as pushUserPerDevice from './010-push-user-per-device.ts';
import * as signInMethods from './011-sign-in-methods.ts';
import * as apiAccounts from './012-api-accounts.ts';
import * as oidc from './013-oidc.ts';
import * as people from './014-people.ts';
import * as deviceNotices from './016-device-notices.ts';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Versioned migrations, in order; names are never changed once released. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '001-initial': initial,
  '002-history': history,
  '003-push-user-device': pushUserDevice,
  '004-accounts': accounts,
  '005-hardening': hardening,
  '006-known-clients': knownClients,
  '007-demo-created-accounts': demoCreatedAccounts,
  '008-devices': devices,
  '010-push-user-per-device': pushUserPerDevice,
  '011-sign-in-methods': signInMethods,
  '012-api-accounts': apiAccounts,
  '013-oidc': oidc,
  '014-people': people,
  '016-device-notices': deviceNotices,
};

/** Kysely's provider, binding each migration to the dialect it runs on. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      const bound: Record<string, Migration> = {};
      for (const [name, migration] of Object.entries(MIGRATIONS)) {
        bound[name] = { up: (db) => migration.up(db, dialect) };
      }
      return bound;
    },
  };
}
