import type { z } from 'zod/mini';
import type { Permission } from './resources.ts';
import type { ApiVersion } from './versions.ts';

/*
 * What an endpoint of the catalogue is (endpoints.ts), apart from the catalogue itself, so that a part of it
 * (device-endpoints.ts) can be imported without every endpoint's schemas.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint:
 * - `anonymous`: nobody needs to sign in;
 * - `session`: any signed-in caller (the token endpoints add "must be the creator" in the domain);
 * - a permission on the Security entity (seed §5.4), or on this product's Accounts entity;
 * - `device`: an enrolled device, with `Authorization: Device <DeviceToken>` (devices.ts);
 * - `session-or-device`: either of the two above;
 * - `session-or-enrollment-code`: a signed-in caller, or, without any credentials, a body holding an unused
 *   enrolment code (the domain checks the code).
 */
export type Access =
  | { kind: 'anonymous' }
  | { kind: 'session' }
  | {
      kind: 'permission';
      entity: 'Security' | 'Accounts';
      permission: Permission;
      /**
       * Also open to Contain on Accounts (the helpdesk), for a person who holds no Accounts permission: the
       * domain refuses the target otherwise (containmentRefusal).
       */
      containment?: true;
    }
  | { kind: 'device' }
  | { kind: 'session-or-device' }
  | { kind: 'session-or-enrollment-code' };

export interface Endpoint {
  /** The seed's endpoint number; null for this product's extensions. */
  seedNumber: number | null;
  method: HttpMethod;
  /** Path under API_PREFIX, in the seed's casing, Fastify-style params (`:id`). */
  path: string;
  /** Further paths serving the same endpoint (SPEC §3: #2 is also served where the published client calls it). */
  aliases: readonly string[];
  summary: string;
  access: Access;
  /** First version that has the endpoint. */
  since: ApiVersion;
  /** Last version that has it; null when it is in every later version. */
  until: ApiVersion | null;
  /**
   * Version from which it still works but is obsolete, what replaced it, and when it was deprecated (the
   * Deprecation header's moment, RFC 9745).
   */
  obsolete: { since: ApiVersion; successor: string; deprecatedAt: string } | null;
  /** Whether it exists only while demo mode is on. */
  demoOnly: boolean;
  /** The success status when it is not 200 (SPEC §3; the OpenAPI document names it). */
  status?: 201 | 204;
  /** Answers If-None-Match with 304 (the lists' ETags). */
  conditional?: boolean;
  /**
   * Whether the answers of an anonymous endpoint carry secrets or the moment's state (a new token, health): sent with
   * `Cache-Control: no-store`. Answers to a signed-in caller are never stored, whatever this says.
   */
  noStore: boolean;
  /** A Server-Sent Events stream, and what its events are (the OpenAPI document says so). */
  eventStream?: string;
  /** A file to save rather than JSON: its media type, and what it is (the OpenAPI document says so). */
  download?: { mediaType: string; description: string };
  /**
   * A step-up action: it needs a second factor verified within STEP_UP_MINUTES in this session (unless SECOND_FACTOR is
   * off), otherwise 403 step-up-required, and the caller proves one at POST /Consumer/Authentication/StepUp and asks
   * again. `true`: always (the access check enforces it); `{ when }`: only in the case named, which the service judges
   * with what it knows of the request. The OpenAPI document carries it as `x-step-up`.
   */
  stepUp?: StepUp;
  /** Served to a session that may do nothing but add a second factor (a writer's first sign-in without one). */
  duringEnrolment?: true;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response?: z.ZodMiniType;
}

/** When an endpoint is a step-up action: always, or in one case the service judges (its words name the case). */
export type StepUp = true | { when: string };

export const SECURITY_READ: Access = { kind: 'permission', entity: 'Security', permission: 'Read' };
export const SECURITY_WRITE: Access = { kind: 'permission', entity: 'Security', permission: 'Write' };
export const ACCOUNTS_READ: Access = { kind: 'permission', entity: 'Accounts', permission: 'Read' };
export const ACCOUNTS_WRITE: Access = { kind: 'permission', entity: 'Accounts', permission: 'Write' };
export const DEVICE: Access = { kind: 'device' };
/** Accounts Write, or Contain for a person who holds no Accounts permission. */
export const ACCOUNTS_WRITE_OR_CONTAIN: Access = {
  kind: 'permission',
  entity: 'Accounts',
  permission: 'Write',
  containment: true,
};
/** Security Write, or Contain for a person who holds no Accounts permission. */
export const SECURITY_WRITE_OR_CONTAIN: Access = {
  kind: 'permission',
  entity: 'Security',
  permission: 'Write',
  containment: true,
};

/** The grants the access rule of an endpoint looks at, in the contract's shape. */
interface Grant {
  Entity: string;
  Permissions: readonly string[];
}

const holds = (grants: readonly Grant[], entity: string, permission: string) =>
  grants.some((grant) => grant.Entity.toLowerCase() === entity.toLowerCase() && grant.Permissions.includes(permission));

/**
 * How a signed-in caller's grants meet a permission rule: by the permission itself, by Contain (the target must
 * then hold no Accounts permission, which the domain checks), or not at all. One rule for the service and the
 * dashboard.
 */
export function permissionAccess(grants: readonly Grant[], access: Access): 'granted' | 'containment' | 'refused' {
  if (access.kind !== 'permission') return 'granted';
  if (holds(grants, access.entity, access.permission)) return 'granted';
  if (access.containment && holds(grants, 'Accounts', 'Contain')) return 'containment';
  return 'refused';
}

/** Whether grants hold any Accounts permission: such an account is out of the helpdesk's reach. */
export const holdsAccountsPermission = (grants: readonly Grant[]) =>
  grants.some((grant) => grant.Entity.toLowerCase() === 'accounts' && grant.Permissions.length > 0);

/** What most endpoints share: in every version from 3.0, current, not demo-only, answers may be cached. */
export const base = {
  aliases: [],
  since: '3.0',
  until: null,
  obsolete: null,
  demoOnly: false,
  noStore: false,
} as const satisfies Partial<Endpoint>;
