import type { Generated } from 'kysely';
import type {
  AuthorizationRequestStatus,
  HistoryAction,
  HistoryEntity,
  PushUserStatus,
} from '../../shared/contract/index.ts';

/**
 * The typed shape of the database, identical on SQLite and PostgreSQL.
 * Timestamps are TEXT in the seed's UTC shape `YYYY-MM-DD hh:mm:ss.fff`: it sorts as it reads,
 * needs no conversion on either dialect, and is what the interface answers anyway.
 * Booleans are 0/1 integers for the same reason.
 */
export interface Database {
  principals: PrincipalTable;
  permission_grants: PermissionGrantTable;
  sessions: SessionTable;
  authorization_requests: AuthorizationRequestTable;
  push_message_users: PushMessageUserTable;
  instructions: InstructionTable;
  pushes: PushTable;
  list_revisions: ListRevisionTable;
  history: HistoryTable;
  account_history: AccountHistoryTable;
  known_clients: KnownClientTable;
  devices: DeviceTable;
  enrollment_codes: EnrollmentCodeTable;
  token_issues: TokenIssueTable;
  device_events: DeviceEventTable;
  device_notices: DeviceNoticeTable;
  service_keys: ServiceKeyTable;
  passkeys: PasskeyTable;
  recovery_codes: RecoveryCodeTable;
  webauthn_challenges: WebAuthnChallengeTable;
  sign_in_tickets: SignInTicketTable;
  oidc_flows: OidcFlowTable;
  oidc_handovers: OidcHandoverTable;
  alert_destinations: AlertDestinationTable;
  alert_deliveries: AlertDeliveryTable;
  activity_events: ActivityEventTable;
  /** SQLite only: one row, the newest event id the text index holds (migration 029). */
  activity_search_state: { indexed_through: number };
  temporary_codes: TemporaryCodeTable;
  temporary_code_uses: TemporaryCodeUseTable;
}

export interface PrincipalTable {
  id: Generated<number>;
  user_name: string;
  /** Lower-cased user name: Windows account names compare case-insensitively. */
  user_key: string;
  /** Empty for directory accounts: the directory checks their passwords. */
  password_hash: string;
  enabled: number;
  source: Generated<'local' | 'directory' | 'oidc'>;
  last_sign_in_at: string | null;
  created_at: string | null;
  /**
   * 1 for an account created while demo mode was on, until an account administrator enables it with demo mode off:
   * such accounts are disabled at every start with demo mode off (migration 006).
   */
  created_in_demo: Generated<number>;
  /** Given by an administrator, or read from the directory at sign-in; null for none (migration 008). */
  email: Generated<string | null>;
  /** A person's account, or an API account for scripts and the SDK, whose secret the service generates (migration 012). */
  kind: Generated<'person' | 'api'>;
  /** The identity provider's issuer and `sub` a single sign-on account is bound to (migration 021). */
  oidc_issuer: Generated<string | null>;
  oidc_subject: Generated<string | null>;
}

export interface PermissionGrantTable {
  principal_id: number;
  entity: string;
  permission: string;
}

export interface SessionTable {
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  principal_id: number;
  created_at: string;
  last_seen_at: string;
  absolute_expires_at: string;
  revoked_at: string | null;
  /** When a second factor was last verified in this session (its second step or a step-up); migration 011. */
  second_factor_at: Generated<string | null>;
  /** 1 while the session may do nothing but add a second factor the policy asks of its person. */
  enrolment_only: Generated<number>;
  /** The provider's ID token when single sign-on opened the session (its sign-out's id_token_hint); migration 013. */
  oidc_id_token: Generated<string | null>;
  /** How the session's person first proved who they are (assurance.ts `ProofKind`); null before migration 020. */
  first_factor: Generated<string | null>;
  /** The kind of the second factor verified at `second_factor_at` (assurance.ts `ProofKind`); migration 020. */
  second_factor: Generated<string | null>;
}

/** A single sign-on under way: what its callback is checked against (migration 013). */
export interface OidcFlowTable {
  flow_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: string;
}

/** A single sign-on the provider accepted, waiting for the dashboard to exchange its one-time code (migration 013). */
export interface OidcHandoverTable {
  code_hash: string;
  flow_hash: string;
  principal_id: number;
  id_token: string;
  subject: string;
  mfa_counted: number;
  expires_at: string;
  /** JSON of the permissions the sign-in brings, written when its session opens (migration 020). */
  pending_grants: Generated<string | null>;
}

export interface AuthorizationRequestTable {
  id: Generated<number>;
  user_name: string;
  user_email: string;
  request_guid: string;
  device_type: string;
  manufacturer: string;
  model: string;
  os_version: string;
  created_at: string;
  modified_at: string;
  status: AuthorizationRequestStatus;
  comment: string | null;
  decided_by: string | null;
  decided_at: string | null;
}

/** One registered device each (migration 010): a person has as many as they have approved devices. */
export interface PushMessageUserTable {
  id: Generated<number>;
  device_type: string;
  user_name: string;
  user_key: string;
  created_at: string;
  modified_at: string;
  status: PushUserStatus;
  /** From the authorization request that registered the device; null otherwise (migration 003). */
  manufacturer: string | null;
  model: string | null;
  os_version: string | null;
}

export interface InstructionTable {
  id: Generated<number>;
  scheduled: number;
  created_by: string;
  created_by_key: string;
  state: 'AwaitingTwoFactor' | 'Authenticated' | 'Expired';
  token_hash: string | null;
  token_expires_at: string | null;
  failed_attempts: number;
  tokens_issued: Generated<number>;
  created_at: string;
  authenticated_at: string | null;
  /** What the instruction does, as its creator named it ('' for instructions from before names). */
  name: Generated<string>;
  /** Migration 015: a Consumer API instruction, or a device code of the dashboard's sign-in or step-up. */
  purpose: Generated<InstructionPurpose>;
  /** The hash of the ticket or session a sign-in or step-up code proves for; null for instructions. */
  proof_for: Generated<string | null>;
}

export type InstructionPurpose = 'instruction' | 'sign-in' | 'step-up';

export interface PushTable {
  id: Generated<number>;
  push_message_user_id: number;
  instruction_id: number;
  scheduled: number;
  /**
   * The code in plain text, for the device inbox: in demo mode always (a person plays the device and must read it);
   * otherwise only while a device can read it, and removed once the code is used, replaced, reported or expired.
   */
  token: string | null;
  sent_at: string;
  /** The issue this push delivered; null for pushes from before issues were recorded. */
  token_issue_id: Generated<number | null>;
}

/** One counter per list, bumped in the same transaction as any change to it: the list's ETag. */
export interface ListRevisionTable {
  name: 'authorization_requests' | 'push_message_users';
  revision: number;
}

export interface HistoryTable {
  id: Generated<number>;
  entity: HistoryEntity;
  entity_id: number;
  action: HistoryAction;
  from_state: string | null;
  to_state: string;
  comment: string | null;
  changed_by: string | null;
  changed_at: string;
}

/** Sign-ins, failed sign-ins and account changes (never a password or a hash). */
export interface AccountHistoryTable {
  id: Generated<number>;
  principal_id: number | null;
  /** As typed at sign-in; the account's name for changes. */
  user_name: string;
  action: string;
  detail: string | null;
  client_address: string | null;
  consumer: string | null;
  changed_by: string | null;
  changed_at: string;
}

/** Where each account signed in successfully, and when last (migration 006). */
export interface KnownClientTable {
  user_key: string;
  /** The address as the sign-in throttle counts it (client-key.ts): an IPv4 address or an IPv6 /64. */
  client_key: string;
  last_success_at: string;
}

/** An enrolled device: its credential, its push message user once authorized, its Web Push subscription. */
export interface DeviceTable {
  id: Generated<number>;
  principal_id: number;
  authorization_request_id: number;
  push_message_user_id: number | null;
  /** SHA-256 of the device credential; the credential itself is never stored. */
  credential_hash: string;
  push_endpoint: string | null;
  push_p256dh: string | null;
  push_auth: string | null;
  created_at: string;
  /** Removed by its person, its push user Deleted, or its person disabled: the credential works no more. */
  ended_at: string | null;
  /** When its credential was last used, to the minute (migration 010); null until then. */
  last_seen_at: Generated<string | null>;
  /** Who enrolled it: its person signed in, or the maker of the link it used (migration 020; null before). */
  added_by: Generated<string | null>;
  /** How it was enrolled (migration 024): null for devices enrolled before that was recorded. */
  enrolled_via: Generated<EnrolledVia | null>;
  /** When the enrolment link it used was made (its maker is added_by). */
  link_issued_at: Generated<string | null>;
  /** The address and User-Agent of the enrolment's request. */
  client_address: Generated<string | null>;
  user_agent: Generated<string | null>;
}

export type EnrolledVia = 'link' | 'password' | 'single-sign-on';

/** A single-use enrolment code, stored hashed. */
export interface EnrollmentCodeTable {
  code_hash: string;
  principal_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Who made the link: its person, or a helpdesk (migration 020; null before). */
  created_by: Generated<string | null>;
}

/** One two-factor code issued: for the per-person cap, the inbox's "asked from", and reports. */
export interface TokenIssueTable {
  id: Generated<number>;
  instruction_id: number;
  user_key: string;
  issued_at: string;
  expires_at: string;
  client_address: string | null;
  user_agent: string | null;
  devices_notified: number;
  reported_at: string | null;
  /** A report marked handled: when, and by whom (migration 014). */
  handled_at: Generated<string | null>;
  handled_by: Generated<string | null>;
}

export type DeviceEventKind = 'token' | 'token-ended' | 'notice';

/**
 * The codes and notices a device's live stream sends, kept so a reconnecting stream resumes where it left off. (Its
 * state needs no log: a stream sends it whole at every connect and after every change.)
 */
export interface DeviceEventTable {
  id: Generated<number>;
  device_id: number;
  kind: DeviceEventKind;
  instruction_id: number | null;
  created_at: string;
  /** The notice a `notice` event sends (migration 016). */
  notice_id: Generated<number | null>;
}

export type DeviceNoticeKind = 'enrolled' | 'approved' | 'temporary-code';

/**
 * A device told that another device was enrolled for its person, or approved (migration 016), or that a temporary
 * code was issued for them (migration 027).
 */
export interface DeviceNoticeTable {
  id: Generated<number>;
  device_id: number;
  kind: DeviceNoticeKind;
  /** The new device's enrolment ('enrolled', 'approved'); null for a temporary code's notice. */
  authorization_request_id: number | null;
  created_at: string;
  /** When the person said, from this device, that the new one is not theirs. */
  reported_at: string | null;
  /** The code issued ('temporary-code'); null otherwise. */
  temporary_code_id: Generated<number | null>;
}

/** Keys the service makes for itself once and every process shares (the VAPID pair). */
export interface ServiceKeyTable {
  name: string;
  value: string;
  created_at: string;
}

/** Migration 011: sign-in methods beside the password. */
export interface PasskeyTable {
  id: Generated<number>;
  principal_id: number;
  credential_id: string;
  public_key: string;
  /** bigint: PostgreSQL answers it as text, so it is read through Number(). */
  counter: number | string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Who added it (migration 020; null before). */
  added_by: Generated<string | null>;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  principal_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
  /** Who made them (migration 020; null before). */
  added_by: Generated<string | null>;
}

export interface WebAuthnChallengeTable {
  challenge: string;
  purpose: 'register' | 'sign-in' | 'step-up';
  principal_id: number | null;
  expires_at: string;
}

export interface SignInTicketTable {
  ticket_hash: string;
  principal_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The provider's ID token when the first factor was single sign-on: the session the ticket opens keeps it. */
  oidc_id_token: string | null;
  /** JSON of the permissions a directory or provider sign-in brings, written when the session opens (migration 020). */
  pending_grants: Generated<string | null>;
}

/** Where security alerts go (migration 026). */
export interface AlertDestinationTable {
  id: Generated<number>;
  name: string;
  channel: 'email' | 'webhook' | 'slack' | 'teams';
  target: string;
  /** JSON array of AlertEventKind. */
  events: string;
  secret: string | null;
  created_at: string;
  created_by: string;
  consecutive_failures: Generated<number>;
  failing_since: string | null;
  last_delivered_at: string | null;
}

/** The alerts outbox: one row per alert and destination, kept as its delivery log (migration 026). */
export interface AlertDeliveryTable {
  id: Generated<number>;
  destination_id: number;
  message_id: string;
  event_kind: string;
  summary: string;
  payload: string;
  status: 'pending' | 'delivered' | 'gave-up';
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  queued_at: string;
  delivered_at: string | null;
}

/** One security event, as the audit stream carried it (migration 025): append-only. */
export interface ActivityEventTable {
  id: Generated<number>;
  at: string;
  action: string;
  outcome: 'success' | 'failure';
  reason: string | null;
  actor: string | null;
  actor_key: string | null;
  person: string | null;
  person_key: string | null;
  target_type: string | null;
  target_id: string | null;
  source_ip: string | null;
  user_agent: string | null;
  /** JSON of the event's details; null for none. */
  details: string | null;
  /** The searchable fields, lower-cased and joined by line breaks (migration 025). */
  search: Generated<string>;
}

/** A temporary code the helpdesk issued (migration 022): its hash, never the code. */
export interface TemporaryCodeTable {
  id: Generated<number>;
  principal_id: number;
  code_hash: string;
  issued_by: string;
  issued_at: string;
  expires_at: string;
  uses_allowed: number;
  uses_made: Generated<number>;
  revoked_by: string | null;
  revoked_at: string | null;
}

/** One use of a temporary code. */
export interface TemporaryCodeUseTable {
  id: Generated<number>;
  temporary_code_id: number;
  purpose: 'instruction' | 'sign-in';
  used_at: string;
  client_address: string | null;
}
