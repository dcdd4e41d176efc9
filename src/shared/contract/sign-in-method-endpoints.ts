import { ACCOUNTS_WRITE_OR_CONTAIN, base, type Endpoint } from './endpoint.ts';
import { IdParam, LoginResult } from './resources.ts';
import {
  DeviceCodeRequest,
  DeviceCodeSent,
  DeviceCodeSignIn,
  Passkey,
  PasskeyOptions,
  PasskeyOptionsRequest,
  PasskeyRegistration,
  PasskeyRename,
  PasskeySignIn,
  RecoveryCodeSignIn,
  RecoveryCodes,
  SignInMethods,
  SignInMethodsReset,
  StepUpProof,
  StepUpResult,
  TemporaryCodeSignIn,
} from './sign-in-methods.ts';

/** What the sign-in endpoints share: anonymous, answers never cached (they carry challenges and sessions). */
const signInStep = { ...base, seedNumber: null, noStore: true, access: { kind: 'anonymous' } } as const;
/** The caller's own methods: any session, the one that may only add a second factor included. */
const ownMethods = { ...base, seedNumber: null, access: { kind: 'session' }, duringEnrolment: true } as const;

/** Passkeys, recovery codes, the second step after a password and step-up (extensions in every API version). */
export const signInMethodEndpoints = {
  passkeySignInOptions: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/Passkey/Options',
    summary:
      'A single-use challenge (5 minutes) for signing in with a passkey: any discoverable one, or with Ticket, one of that person',
    body: PasskeyOptionsRequest,
    response: PasskeyOptions,
  },
  passkeySignIn: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/Passkey',
    summary: 'Sign in with a passkey: alone, or as the second step after a password (with its Ticket)',
    body: PasskeySignIn,
    response: LoginResult,
  },
  recoveryCodeSignIn: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/RecoveryCode',
    summary: 'The second step after a password with one of the person’s recovery codes (each works once)',
    body: RecoveryCodeSignIn,
    response: LoginResult,
  },
  temporaryCodeSignIn: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/TemporaryCode',
    summary:
      'The second step after a password with a temporary code from the helpdesk (never a step-up proof; the session may add a first passkey)',
    body: TemporaryCodeSignIn,
    response: LoginResult,
  },
  deviceCodeSend: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/DeviceCode/Send',
    summary:
      'Send a code (6 digits, single use) to the person’s own Active devices for the second step of this password sign-in',
    body: DeviceCodeRequest,
    response: DeviceCodeSent,
  },
  deviceCodeSignIn: {
    ...signInStep,
    method: 'POST',
    path: '/Consumer/Authentication/DeviceCode',
    summary: 'The second step after a password with the code sent to the person’s devices for this Ticket',
    body: DeviceCodeSignIn,
    response: LoginResult,
  },
  stepUpDeviceCode: {
    ...ownMethods,
    noStore: true,
    method: 'POST',
    path: '/Consumer/Authentication/StepUp/DeviceCode',
    summary: 'Send a code to the caller’s own Active devices, to type back as a step-up proof in this session',
    response: DeviceCodeSent,
  },
  stepUpOptions: {
    ...ownMethods,
    noStore: true,
    method: 'POST',
    path: '/Consumer/Authentication/StepUp/Options',
    summary: 'A single-use challenge for proving a passkey of the caller again (step-up)',
    response: PasskeyOptions,
  },
  stepUp: {
    ...ownMethods,
    method: 'POST',
    path: '/Consumer/Authentication/StepUp',
    summary:
      'Prove a second factor again (a passkey, a recovery code or a device code): step-up actions work for STEP_UP_MINUTES',
    body: StepUpProof,
    response: StepUpResult,
  },
  ownSignInMethods: {
    ...ownMethods,
    method: 'GET',
    path: '/Admin/Accounts/Me/SignInMethods',
    summary: "The caller's passkeys, recovery codes left and Active devices (never a secret)",
    response: SignInMethods,
  },
  passkeyRegistrationOptions: {
    ...ownMethods,
    noStore: true,
    method: 'POST',
    path: '/Admin/Accounts/Me/Passkeys/Options',
    summary: 'A single-use challenge (5 minutes) for adding a passkey to the caller’s account',
    response: PasskeyOptions,
  },
  addPasskey: {
    ...ownMethods,
    method: 'POST',
    path: '/Admin/Accounts/Me/Passkeys',
    summary: 'Add a passkey (the browser’s answer to the registration challenge) under a name',
    status: 201,
    body: PasskeyRegistration,
    response: Passkey,
  },
  renamePasskey: {
    ...ownMethods,
    method: 'PUT',
    path: '/Admin/Accounts/Me/Passkeys/:id',
    summary: 'Rename one of the caller’s passkeys',
    params: IdParam,
    body: PasskeyRename,
    response: Passkey,
  },
  removePasskey: {
    ...ownMethods,
    method: 'DELETE',
    path: '/Admin/Accounts/Me/Passkeys/:id',
    summary:
      'Remove one of the caller’s passkeys (the last one needs a recent step-up while a second factor is required)',
    params: IdParam,
    status: 204,
  },
  newRecoveryCodes: {
    ...ownMethods,
    noStore: true,
    method: 'POST',
    path: '/Admin/Accounts/Me/RecoveryCodes',
    summary: 'Ten new recovery codes, shown once; they replace all earlier ones',
    status: 201,
    response: RecoveryCodes,
  },
  resetSignInMethods: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Admin/Accounts/:id/SignInMethods/Reset',
    summary:
      "Remove a person's passkeys, recovery codes and devices (their credentials end; enrolled again, a phone is approved anew) and end their sessions: they add a method at next sign-in",
    access: ACCOUNTS_WRITE_OR_CONTAIN,
    stepUp: true,
    params: IdParam,
    response: SignInMethodsReset,
  },
} as const satisfies Record<string, Endpoint>;
