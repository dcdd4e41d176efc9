import {
  type Account,
  type AccountCreation,
  type AccountHistoryEntry,
  type AccountPermissions,
  type AuthorizationRequest,
  type DemoAuthorizationRequestInput,
  type DemoInstruction,
  type DemoPush,
  type DeviceAuthorizationDecision,
  type EnrollmentLink,
  endpoints,
  type HistoryEntity,
  type HistoryEntry,
  type Instruction,
  type InstructionInput,
  type InstructionKind,
  type LoginCredentials,
  type LoginResult,
  type PushMessageUser,
  type PushMessageUserUpdate,
  type ReportedCode,
  type Session,
  type TokenAccepted,
  tokenEndpointFor,
  type VersionInfo,
} from '../../shared/contract/index.ts';
import type { ApiClient } from './client.ts';

export interface TokenSubmission {
  kind: InstructionKind;
  id: number;
  token: string;
}

/** The seed's operations (and this product's extensions) as typed functions over one client. */
export function createConsumerApi(client: ApiClient) {
  return {
    client,
    version: (signal?: AbortSignal): Promise<VersionInfo> => client.call(endpoints.version, { signal }),
    login: (credentials: LoginCredentials): Promise<LoginResult> => client.call(endpoints.login, { body: credentials }),
    session: (signal?: AbortSignal): Promise<Session> => client.call(endpoints.getSession, { signal }),
    /** The person asked to stay signed in (or acted since the last extension): extends the idle deadline. */
    keepSession: (signal?: AbortSignal): Promise<Session> =>
      client.call(endpoints.getSession, { signal, byPerson: true }),
    endSession: (): Promise<undefined> => client.call(endpoints.endSession),

    listAuthorizationRequests: (all: boolean, signal?: AbortSignal): Promise<AuthorizationRequest[]> =>
      client.call(endpoints.listAuthorizationRequests, { query: { getall: String(all) }, signal }),
    getAuthorizationRequest: (id: number, signal?: AbortSignal): Promise<AuthorizationRequest> =>
      client.call(endpoints.getAuthorizationRequest, { params: { id }, signal }),
    authorizeDevice: (decision: DeviceAuthorizationDecision): Promise<AuthorizationRequest> =>
      client.call(endpoints.authorizeDevice, { body: decision }),

    listPushUsers: (signal?: AbortSignal): Promise<PushMessageUser[]> =>
      client.call(endpoints.listPushMessageUsers, { signal }),
    getPushUser: (id: number, signal?: AbortSignal): Promise<PushMessageUser> =>
      client.call(endpoints.getPushMessageUser, { params: { id }, signal }),
    updatePushUser: (update: PushMessageUserUpdate): Promise<PushMessageUser> =>
      client.call(endpoints.updatePushMessageUser, { body: update }),

    submitToken: ({ kind, id, token }: TokenSubmission): Promise<TokenAccepted> => {
      const endpoint = tokenEndpointFor(kind, client.apiVersion());
      const body =
        endpoint === endpoints.submitObsoleteToken ? { InstructionId: id, Token: token } : { Id: id, Token: token };
      return client.call(endpoint, { body });
    },

    history: (entity: HistoryEntity, id: number, signal?: AbortSignal): Promise<HistoryEntry[]> =>
      client.call(endpoints.history, { query: { entity, id: String(id) }, signal }),

    demoCreateAuthorizationRequest: (input: DemoAuthorizationRequestInput): Promise<AuthorizationRequest> =>
      client.call(endpoints.demoCreateAuthorizationRequest, { body: input }),
    demoReissueToken: (instructionId: number): Promise<DemoInstruction> =>
      client.call(endpoints.demoReissueToken, { params: { id: instructionId } }),
    demoReset: (): Promise<undefined> => client.call(endpoints.demoReset),
    demoCreateInstruction: (scheduled: boolean): Promise<DemoInstruction> =>
      client.call(endpoints.demoCreateInstruction, { body: { Scheduled: scheduled } }),
    demoPushes: (signal?: AbortSignal): Promise<DemoPush[]> => client.call(endpoints.demoListPushes, { signal }),

    // Account administration
    listAccounts: (signal?: AbortSignal): Promise<Account[]> => client.call(endpoints.listAccounts, { signal }),
    createAccount: (input: AccountCreation): Promise<Account> => client.call(endpoints.createAccount, { body: input }),
    accountHistory: (id: number, signal?: AbortSignal): Promise<AccountHistoryEntry[]> =>
      client.call(endpoints.accountHistory, { params: { id }, signal }),
    updateAccountPermissions: (id: number, permissions: AccountPermissions): Promise<Account> =>
      client.call(endpoints.updateAccountPermissions, { params: { id }, body: { Permissions: permissions } }),
    updateAccountEnabled: (id: number, enabled: boolean): Promise<Account> =>
      client.call(endpoints.updateAccountEnabled, { params: { id }, body: { Enabled: enabled } }),
    resetAccountPassword: (id: number, password: string): Promise<Account> =>
      client.call(endpoints.resetAccountPassword, { params: { id }, body: { Password: password } }),
    signOutAccount: (id: number): Promise<Account> => client.call(endpoints.signOutAccount, { params: { id } }),
    changeOwnPassword: (oldPassword: string, newPassword: string): Promise<undefined> =>
      client.call(endpoints.changeOwnPassword, { body: { OldPassword: oldPassword, NewPassword: newPassword } }),
    signOutEverywhere: (): Promise<undefined> => client.call(endpoints.signOutOwnSessions),
    updateAccountEmail: (id: number, email: string | null): Promise<Account> =>
      client.call(endpoints.updateAccountEmail, { params: { id }, body: { Email: email } }),
    reportedCodes: (signal?: AbortSignal): Promise<ReportedCode[]> => client.call(endpoints.reportedCodes, { signal }),

    // Devices and instructions: a real second factor
    createEnrollmentLink: (): Promise<EnrollmentLink> => client.call(endpoints.createEnrollmentLink),
    createInstruction: (input: InstructionInput): Promise<Instruction> =>
      client.call(endpoints.createInstruction, { body: input }),
  };
}
