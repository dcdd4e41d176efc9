import {
  Account,
  AccountCreation,
  AccountEmailUpdate,
  AccountEnabledUpdate,
  AccountHistoryList,
  AccountList,
  AccountPermissionsUpdate,
  CreatedAccount,
  OwnPasswordChange,
  PasswordReset,
  ReportedCodeList,
  RotatedSecret,
} from './accounts.ts';
import { ACTIVITY_EXPORT_MAX, ActivityExportQuery, ActivityPage, ActivityQuery } from './activity.ts';
import { alertEndpoints } from './alert-endpoints.ts';
import { deviceAppEndpoints } from './device-endpoints.ts';
import { EnrollmentLink, Instruction, InstructionInput } from './devices.ts';
import {
  ACCOUNTS_READ,
  ACCOUNTS_WRITE,
  ACCOUNTS_WRITE_OR_CONTAIN,
  base,
  type Endpoint,
  SECURITY_READ,
  SECURITY_WRITE,
  SECURITY_WRITE_OR_CONTAIN,
} from './endpoint.ts';
import { HistoryList, HistoryQuery } from './history.ts';
import { DevicesDisabled, Person, PersonParam, PersonSummaryList, ReportHandled } from './people.ts';
import { RequestContextList, RequestContextQuery } from './request-context.ts';
import {
  AuthorizationRequest,
  AuthorizationRequestList,
  AuthorizationRequestQuery,
  DemoAuthorizationRequestInput,
  DemoInstruction,
  DemoInstructionInput,
  DemoPushList,
  DeviceAuthorizationDecision,
  HealthStatus,
  IdParam,
  InstructionTokenSubmission,
  LoginResult,
  ObsoleteTokenSubmission,
  PushMessageUser,
  PushMessageUserDetail,
  PushMessageUserList,
  PushMessageUserUpdate,
  Session,
  SetupProgress,
  TokenAccepted,
  VersionInfo,
} from './resources.ts';
import { signInMethodEndpoints } from './sign-in-method-endpoints.ts';
import { SingleSignOn, SingleSignOnExchange, SingleSignOut } from './single-sign-on.ts';
import { IssuedTemporaryCode, TemporaryCodeRequest } from './temporary-codes.ts';
import { type ApiVersion, compareVersions, SUPPORTED_VERSIONS } from './versions.ts';

export type { Access, Endpoint, HttpMethod } from './endpoint.ts';
export { holdsAccountsPermission, permissionAccess } from './endpoint.ts';

/**
 * 100000 → "100,000". Not toLocaleString: the catalogue is read as the dashboard starts, and the first number format
 * there costs a phone's CPU about 15 ms.
 */
const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

export const endpoints = {
  login: deviceAppEndpoints.login,
  submitObsoleteToken: {
    ...base,
    seedNumber: 2,
    method: 'POST',
    path: '/ConsumerAuthentication/Token',
    aliases: ['/Consumer/Authentication/Token'],
    summary: 'Submit a two-factor token for an instruction (obsolete)',
    access: { kind: 'session' },
    obsolete: {
      since: '3.1',
      successor: '/Consumer/Authentication/Instruction/Token',
      deprecatedAt: '2020-01-01T00:00:00Z',
    },
    body: ObsoleteTokenSubmission,
    response: TokenAccepted,
  },
  submitInstructionToken: {
    ...base,
    seedNumber: 3,
    method: 'POST',
    path: '/Consumer/Authentication/Instruction/Token',
    summary: 'Submit a two-factor token for an instruction',
    access: { kind: 'session' },
    since: '3.1',
    body: InstructionTokenSubmission,
    response: TokenAccepted,
  },
  submitScheduledInstructionToken: {
    ...base,
    seedNumber: 4,
    method: 'POST',
    path: '/Consumer/Authentication/ScheduledInstruction/Token',
    summary: 'Submit a two-factor token for a scheduled instruction',
    access: { kind: 'session' },
    since: '3.1',
    body: InstructionTokenSubmission,
    response: TokenAccepted,
  },
  authorizeDevice: {
    ...base,
    seedNumber: 5,
    method: 'POST',
    path: '/Consumer/Authentication/AuthorizeDevice',
    summary: 'Authorize or reject a mobile device',
    access: SECURITY_WRITE,
    stepUp: { when: 'approving a device of the caller’s own' },
    until: '3.3',
    body: DeviceAuthorizationDecision,
    response: AuthorizationRequest,
  },
  listAuthorizationRequests: {
    ...base,
    seedNumber: 6,
    method: 'GET',
    path: '/Consumer/Authentication/AuthorizationRequests',
    summary: 'List pending (or all) authorization requests',
    access: SECURITY_READ,
    conditional: true,
    until: '3.3',
    query: AuthorizationRequestQuery,
    response: AuthorizationRequestList,
  },
  getAuthorizationRequest: {
    ...base,
    seedNumber: 7,
    method: 'GET',
    path: '/Consumer/Authentication/AuthorizationRequests/:id',
    summary: 'Read one authorization request',
    access: SECURITY_READ,
    until: '3.3',
    params: IdParam,
    response: AuthorizationRequest,
  },
  listPushMessageUsers: {
    ...base,
    seedNumber: 8,
    method: 'GET',
    path: '/Consumer/PushMessageUsers',
    summary: 'List users registered for push messages',
    access: SECURITY_READ,
    conditional: true,
    until: '3.3',
    response: PushMessageUserList,
  },
  getPushMessageUser: {
    ...base,
    seedNumber: 9,
    method: 'GET',
    path: '/Consumer/PushMessageUsers/:id',
    summary: 'Read one push message user',
    access: SECURITY_READ,
    until: '3.3',
    params: IdParam,
    response: PushMessageUserDetail,
  },
  updatePushMessageUser: {
    ...base,
    seedNumber: 10,
    method: 'PUT',
    path: '/Consumer/PushMessageUsers',
    summary: 'Change the status of a push message user',
    access: SECURITY_WRITE,
    stepUp: { when: 'making a Disabled device Active again' },
    until: '3.3',
    body: PushMessageUserUpdate,
    response: PushMessageUser,
  },
  version: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Consumer/Version',
    summary: 'Default and supported API versions',
    access: { kind: 'anonymous' },
    response: VersionInfo,
  },
  setupProgress: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Setup',
    summary: "A new organisation's set-up steps and whether each is done (the overview's first-run checklist)",
    access: SECURITY_READ,
    response: SetupProgress,
  },
  getSession: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Consumer/Authentication/Session',
    summary: 'The current session',
    access: { kind: 'session' },
    duringEnrolment: true,
    response: Session,
  },
  endSession: deviceAppEndpoints.endSession,
  singleSignOn: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Consumer/Authentication/Oidc',
    summary: 'Whether single sign-on (OpenID Connect) is offered, and the name of its button',
    access: { kind: 'anonymous' },
    response: SingleSignOn,
  },
  exchangeSingleSignOn: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'POST',
    path: '/Consumer/Authentication/Oidc/Session',
    summary: 'The one-time code single sign-on gave the sign-in page, exchanged (once, in that browser) for a session',
    access: { kind: 'anonymous' },
    body: SingleSignOnExchange,
    response: LoginResult,
  },
  singleSignOut: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Consumer/Authentication/Oidc/SignOut',
    summary: "Sign out, and the provider's sign-out address for a session single sign-on opened",
    access: { kind: 'session' },
    response: SingleSignOut,
  },
  history: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Consumer/History',
    summary: 'Recorded decisions and status changes of one authorization request or push user',
    access: SECURITY_READ,
    until: '3.3',
    query: HistoryQuery,
    response: HistoryList,
  },
  changeEvents: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Consumer/Events',
    summary: 'Live stream of changes to authorization requests and push users (Server-Sent Events)',
    access: SECURITY_READ,
    until: '3.3',
    eventStream: 'Server-Sent Events: each event is a JSON change (authorization-request, push-user, reset).',
  },
  healthLive: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/health/live',
    summary: 'Liveness: the process is up',
    access: { kind: 'anonymous' },
    // A cached answer would say nothing about now.
    noStore: true,
    response: HealthStatus,
  },
  healthReady: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/health/ready',
    summary: 'Readiness: the database answers (503 service-unavailable problem otherwise)',
    access: { kind: 'anonymous' },
    // A cached answer would say nothing about now.
    noStore: true,
    response: HealthStatus,
  },
  demoCreateAuthorizationRequest: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Demo/AuthorizationRequests',
    summary: 'Demo: a mobile device asks to be authorized',
    access: { kind: 'session' },
    status: 201,
    demoOnly: true,
    body: DemoAuthorizationRequestInput,
    response: AuthorizationRequest,
  },
  demoCreateInstruction: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Demo/Instructions',
    summary: 'Demo: create an instruction that needs two-factor authentication',
    access: { kind: 'session' },
    status: 201,
    demoOnly: true,
    body: DemoInstructionInput,
    response: DemoInstruction,
  },
  demoReissueToken: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Demo/Instructions/:id/Token',
    summary: "Demo: issue a new token for one of the caller's instructions (after a lock or expiry)",
    access: { kind: 'session' },
    demoOnly: true,
    params: IdParam,
    response: DemoInstruction,
  },
  demoListPushes: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Demo/Pushes',
    summary: "Demo: pushes delivered to the caller's devices",
    access: { kind: 'session' },
    demoOnly: true,
    response: DemoPushList,
  },
  demoReset: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Demo/Reset',
    summary: 'Demo: restore the demo data',
    // It wipes every decision and the history: as much a Security write as any decision.
    access: SECURITY_WRITE,
    status: 204,
    demoOnly: true,
  },
  // Account administration: extensions in every API version.
  listAccounts: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Accounts',
    summary: 'Local accounts, and directory accounts that have signed in',
    access: ACCOUNTS_READ,
    response: AccountList,
  },
  createAccount: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts',
    summary:
      'Create a local account: a person\'s, or an API account (`"Kind": "Api"`) whose secret is generated and answered once (with Contain: a person\'s, with no permissions)',
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    stepUp: true,
    body: AccountCreation,
    response: CreatedAccount,
    status: 201,
  },
  accountsHistory: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Accounts/History',
    summary: 'Recent sign-ins, failed sign-ins and account changes of every account, newest first',
    access: ACCOUNTS_READ,
    response: AccountHistoryList,
  },
  changeOwnPassword: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/Me/Password',
    summary: "Change the caller's own password (ends the caller's other sessions)",
    access: { kind: 'session' },
    body: OwnPasswordChange,
    status: 204,
  },
  signOutOwnSessions: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/Me/SignOut',
    summary: "Sign out everywhere: revoke all of the caller's sessions, this one included",
    access: { kind: 'session' },
    status: 204,
  },
  getAccount: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Accounts/:id',
    summary: 'Read one account',
    access: ACCOUNTS_READ,
    params: IdParam,
    response: Account,
  },
  accountHistory: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Accounts/:id/History',
    summary: "One account's sign-ins, failed sign-ins and changes, newest first",
    access: ACCOUNTS_READ,
    params: IdParam,
    response: AccountHistoryList,
  },
  updateAccountPermissions: {
    ...base,
    seedNumber: null,
    method: 'PUT',
    path: '/Admin/Accounts/:id/Permissions',
    summary: "Change a local account's permissions",
    access: ACCOUNTS_WRITE,
    stepUp: true,
    params: IdParam,
    body: AccountPermissionsUpdate,
    response: Account,
  },
  updateAccountEnabled: {
    ...base,
    seedNumber: null,
    method: 'PUT',
    path: '/Admin/Accounts/:id/Enabled',
    summary: 'Disable (ending its sessions) or enable an account',
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    stepUp: { when: 'enabling an account' },
    params: IdParam,
    body: AccountEnabledUpdate,
    response: Account,
  },
  resetAccountPassword: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/:id/Password',
    summary: "Reset a local account's password (ends its sessions)",
    access: ACCOUNTS_WRITE,
    stepUp: true,
    params: IdParam,
    body: PasswordReset,
    response: Account,
  },
  updateAccountEmail: {
    ...base,
    seedNumber: null,
    method: 'PUT',
    path: '/Admin/Accounts/:id/Email',
    summary: "Set or remove a local account's email address (a directory account's comes from the directory)",
    access: ACCOUNTS_WRITE,
    params: IdParam,
    body: AccountEmailUpdate,
    response: Account,
  },
  reportedCodes: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Accounts/ReportedCodes',
    summary: 'Two-factor codes people reported from their devices as not asked for by them, newest first',
    // The helpdesk answers reports (it marks them handled, Write on Security): whoever may read people reads them.
    access: SECURITY_READ,
    response: ReportedCodeList,
  },
  backup: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Admin/Backup',
    summary:
      'A consistent copy of the embedded database, taken while the service runs (PostgreSQL: 409 with the pg_dump command)',
    access: ACCOUNTS_WRITE,
    stepUp: true,
    download: {
      mediaType: 'application/vnd.sqlite3',
      description:
        'The SQLite database file (Content-Disposition names it tachyon-YYYY-MM-DDTHHMMSSZ.sqlite3). It holds password and token hashes: keep it as safe as the service.',
    },
  },
  rotateAccountSecret: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/:id/Secret',
    summary: "Rotate an API account's secret: a new one is generated and answered once; its sessions end",
    access: ACCOUNTS_WRITE,
    stepUp: true,
    params: IdParam,
    response: RotatedSecret,
  },
  signOutAccount: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/:id/SignOut',
    summary: 'Sign an account out everywhere (revoke all its sessions)',
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    stepUp: true,
    params: IdParam,
    response: Account,
  },
  // People: everyone the service knows, by user name (extensions in every API version, under /api only).
  listPeople: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/People',
    summary:
      'Everyone the service knows (accounts, and the user names of requests and push users), with their devices, pending requests, last sign-in and open reports',
    access: SECURITY_READ,
    response: PersonSummaryList,
  },
  getPerson: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/People/:userName',
    summary:
      'One person: their devices, requests, the codes sent to them (never the code) and reports; their account and sign-ins with Read on Accounts',
    access: SECURITY_READ,
    params: PersonParam,
    response: Person,
  },
  createPersonEnrollmentLink: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'POST',
    path: '/People/:userName/EnrollmentLinks',
    summary:
      "A single-use link (10 minutes) that enrols a phone as this person's device: the helpdesk sets up someone else's phone (for a person holding Accounts permissions, only with Write on Accounts: 403 accounts-write-required)",
    access: SECURITY_WRITE_OR_CONTAIN,
    stepUp: { when: 'the link is for the caller’s own account and they already have a second factor' },
    status: 201,
    params: PersonParam,
    response: EnrollmentLink,
  },
  disablePersonDevices: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/People/:userName/Devices/Disable',
    summary:
      'Disable every device of this person (their push users become Disabled; no code reaches them until enabled)',
    access: SECURITY_WRITE_OR_CONTAIN,
    params: PersonParam,
    response: DevicesDisabled,
  },
  issueTemporaryCode: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'POST',
    path: '/People/:userName/TemporaryCodes',
    summary:
      'A temporary code for a person without their phone: random, shown once, 10 minutes to 8 hours, used once or up to 10 times',
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    stepUp: true,
    status: 201,
    params: PersonParam,
    body: TemporaryCodeRequest,
    response: IssuedTemporaryCode,
  },
  revokeTemporaryCode: {
    ...base,
    seedNumber: null,
    method: 'DELETE',
    path: '/People/TemporaryCodes/:id',
    summary: 'Revoke a temporary code: it stops working at once',
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    status: 204,
    params: IdParam,
  },
  markReportHandled: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/People/Reports/:id/Handled',
    summary: 'Mark a "This wasn\'t me" report handled (by the caller, now); marking it again changes nothing',
    access: SECURITY_WRITE,
    params: IdParam,
    response: ReportHandled,
  },
  // Deciding with context, and the security events kept (extensions in every API version, under /api only).
  authorizationRequestContexts: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/AuthorizationRequestContexts',
    summary:
      "What an approver should know of up to 100 authorization requests: how each came, its person's other devices and open reports, and hints in plain words",
    access: SECURITY_READ,
    query: RequestContextQuery,
    response: RequestContextList,
  },
  listActivity: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Activity',
    summary:
      'Security events newest first, a page at a time, filtered by actor, person, target, action, outcome, time and free text; account events with Read on Accounts',
    access: SECURITY_READ,
    query: ActivityQuery,
    response: ActivityPage,
  },
  exportActivity: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Activity/Export',
    summary: `Every security event matching the filter, newest first, as CSV (at most ${groupDigits(ACTIVITY_EXPORT_MAX)}: more is refused with 400, to be narrowed); account events with Read on Accounts`,
    access: SECURITY_READ,
    query: ActivityExportQuery,
    download: {
      mediaType: 'text/csv; charset=utf-8',
      description:
        'RFC 4180 CSV with a header line (Content-Disposition names it activity-YYYY-MM-DD-HH-MM-SS.csv): one line per event, times in UTC, formulas made inert.',
    },
  },
  // Devices and instructions: a real second factor (extensions in every API version, under /api only).
  devicePushKey: deviceAppEndpoints.devicePushKey,
  createEnrollmentLink: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'POST',
    path: '/Device/EnrollmentLinks',
    summary: "A single-use link (10 minutes) that enrols a phone as the caller's device without a password",
    access: { kind: 'session' },
    stepUp: { when: 'the caller already has a second factor (a first one is added without)' },
    duringEnrolment: true,
    status: 201,
    response: EnrollmentLink,
  },
  enrollDevice: deviceAppEndpoints.enrollDevice,
  getDevice: deviceAppEndpoints.getDevice,
  removeDevice: deviceAppEndpoints.removeDevice,
  putPushSubscription: deviceAppEndpoints.putPushSubscription,
  deletePushSubscription: deviceAppEndpoints.deletePushSubscription,
  devicePushes: deviceAppEndpoints.devicePushes,
  reportPush: deviceAppEndpoints.reportPush,
  deviceNotices: deviceAppEndpoints.deviceNotices,
  reportNotice: deviceAppEndpoints.reportNotice,
  deviceEvents: deviceAppEndpoints.deviceEvents,
  createInstruction: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Instructions',
    summary: "Create an instruction that needs two-factor: a code goes to the caller's Active devices",
    access: { kind: 'session' },
    status: 201,
    body: InstructionInput,
    response: Instruction,
  },
  getInstruction: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Instructions/:id',
    summary: "One of the caller's instructions, its state now",
    access: { kind: 'session' },
    params: IdParam,
    response: Instruction,
  },
  reissueInstructionToken: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Instructions/:id/Token',
    summary: "A new code for one of the caller's instructions (after a lock or expiry; capped per instruction)",
    access: { kind: 'session' },
    params: IdParam,
    response: Instruction,
  },
  ...signInMethodEndpoints,
  ...alertEndpoints,
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;

export interface Availability {
  available: boolean;
  obsolete: boolean;
  /** Every version that has the endpoint, oldest first. */
  versions: ApiVersion[];
}

/** Seed §9 as one answer: is endpoint E available in version V, and is it obsolete there? */
export function availability(endpoint: Endpoint, version: ApiVersion): Availability {
  const versions = SUPPORTED_VERSIONS.filter(
    (v) =>
      compareVersions(v, endpoint.since) >= 0 && (endpoint.until === null || compareVersions(v, endpoint.until) <= 0),
  );
  const available = versions.includes(version);
  const obsolete = available && endpoint.obsolete !== null && compareVersions(version, endpoint.obsolete.since) >= 0;
  return { available, obsolete, versions };
}

/** Human wording for why an endpoint is missing in a version, e.g. "removed in API 4.0". */
export function unavailableReason(endpoint: Endpoint, version: ApiVersion): string | null {
  const { available, versions } = availability(endpoint, version);
  if (available) return null;
  if (endpoint.until !== null && compareVersions(version, endpoint.until) > 0) {
    const removedIn = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.indexOf(endpoint.until) + 1];
    return `removed in API ${removedIn}`;
  }
  return `added in API ${versions[0] ?? endpoint.since}`;
}

/** The kinds of instruction a two-factor token answers. */
export type InstructionKind = 'instruction' | 'scheduled';

/** Which endpoint takes a token in a version: #3 or #4, and the obsolete #2 in place of #3 before 3.1 (seed §9). */
export function tokenEndpointFor(
  kind: InstructionKind,
  version: ApiVersion,
): (typeof endpoints)['submitScheduledInstructionToken' | 'submitInstructionToken' | 'submitObsoleteToken'] {
  if (kind === 'scheduled') return endpoints.submitScheduledInstructionToken;
  return availability(endpoints.submitInstructionToken, version).available
    ? endpoints.submitInstructionToken
    : endpoints.submitObsoleteToken;
}

/** Fills `:name` params of a catalogue path. */
export function endpointPath(endpoint: Endpoint, params: Record<string, string | number> = {}): string {
  return endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}
