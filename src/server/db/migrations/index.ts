import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.ts';
import * as initial from './001-009/001-initial.ts';
import * as history from './001-009/002-history.ts';
import * as pushUserDevice from './001-009/003-push-user-device.ts';
import * as accounts from './001-009/004-accounts.ts';
import * as hardening from './001-009/005-hardening.ts';
import * as knownClients from './001-009/006-known-clients.ts';
import * as demoCreatedAccounts from './001-009/007-demo-created-accounts.ts';
import * as devices from './001-009/008-devices.ts';
import * as pushUserPerDevice from './010-019/010-push-user-per-device.ts';
import * as signInMethods from './010-019/011-sign-in-methods.ts';
import * as apiAccounts from './010-019/012-api-accounts.ts';
import * as oidc from './010-019/013-oidc.ts';
import * as people from './010-019/014-people.ts';
import * as deviceSignInCodes from './010-019/015-device-sign-in-codes.ts';
import * as deviceNotices from './010-019/016-device-notices.ts';
import * as ticketIdToken from './010-019/019-ticket-id-token.ts';
import * as factorProvenance from './020-029/020-factor-provenance.ts';
import * as oidcSubject from './020-029/021-oidc-subject.ts';
import * as temporaryCodes from './020-029/022-temporary-codes.ts';
import * as enrolmentOrigin from './020-029/024-enrolment-origin.ts';
import * as activity from './020-029/025-activity.ts';
import * as alerts from './020-029/026-alerts.ts';
import * as temporaryCodeNotices from './020-029/027-temporary-code-notices.ts';
import * as activitySearch from './020-029/028-activity-search.ts';
import * as activitySearchBehind from './020-029/029-activity-search-behind.ts';

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
  '015-device-sign-in-codes': deviceSignInCodes,
  '016-device-notices': deviceNotices,
  '019-ticket-id-token': ticketIdToken,
  '020-factor-provenance': factorProvenance,
  '021-oidc-subject': oidcSubject,
  '026-alerts': alerts,
  '024-enrolment-origin': enrolmentOrigin,
  '025-activity': activity,
  '022-temporary-codes': temporaryCodes,
  '027-temporary-code-notices': temporaryCodeNotices,
  '028-activity-search': activitySearch,
  '029-activity-search-behind': activitySearchBehind,
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
