import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { PlainText } from './resources.ts';

/*
 * Sign-in methods beside the password: passkeys (WebAuthn), recovery codes, and the second step and step-up they
 * serve. A WebAuthn options or response object is the browser's JSON as @simplewebauthn/browser gives and takes it;
 * the service checks it with @simplewebauthn/server, so the contract only names its outer shape.
 */

/** The ways a second factor can be verified, as a second step or a step-up, and as `event.reason` says. */
export const SecondFactorMethod = deferred(() => z.enum(['Passkey', 'RecoveryCode', 'DeviceCode']));
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/** SECOND_FACTOR: who needs a second factor after the password. */
export const SECOND_FACTOR_POLICIES = ['off', 'writers', 'everyone'] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

/** Recovery codes are made ten at a time; a sign-in with one says so when this many or fewer are left. */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODES_LOW = 2;

/** PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON, from the service. */
const WebAuthnOptions = deferred(() => z.looseObject({ challenge: z.string() }));
/** RegistrationResponseJSON or AuthenticationResponseJSON, from the browser. */
export const WebAuthnResponse = deferred(() =>
  z.looseObject({
    id: z.string().check(z.minLength(1), z.maxLength(1024)),
    rawId: z.string().check(z.maxLength(1024)),
    type: z.string(),
    response: z.looseObject({ clientDataJSON: z.string().check(z.maxLength(4096)) }),
  }),
);
export type WebAuthnResponse = z.infer<typeof WebAuthnResponse>;

/** A short-lived, single-use ticket from a password step that needs a second step. */
const Ticket = deferred(() => z.string().check(z.minLength(1, 'Ticket is required'), z.maxLength(128)));

export const PasskeyOptions = deferred(() =>
  z.object({
    Options: WebAuthnOptions,
  }),
);
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

/** A passkey sign-in: alone (a discoverable passkey), or as the second step after a password (with its ticket). */
export const PasskeyOptionsRequest = deferred(() => z.object({ Ticket: z.optional(Ticket) }));
export type PasskeyOptionsRequest = z.infer<typeof PasskeyOptionsRequest>;
export const PasskeySignIn = deferred(() => z.object({ Response: WebAuthnResponse, Ticket: z.optional(Ticket) }));
export type PasskeySignIn = z.infer<typeof PasskeySignIn>;

const RecoveryCodeValue = deferred(() =>
  z.string().check(z.trim(), z.minLength(1, 'Code is required'), z.maxLength(64)),
);
export const RecoveryCodeSignIn = deferred(() => z.object({ Ticket, Code: RecoveryCodeValue }));
export type RecoveryCodeSignIn = z.infer<typeof RecoveryCodeSignIn>;

/** A code sent to the person's own Active devices and typed back (six digits; spaces are ignored). */
const DeviceCodeValue = deferred(() => z.string().check(z.trim(), z.minLength(1, 'Code is required'), z.maxLength(16)));
/** Send a code to one's devices for the second step of this password sign-in. */
export const DeviceCodeRequest = deferred(() => z.object({ Ticket }));
export type DeviceCodeRequest = z.infer<typeof DeviceCodeRequest>;
export const DeviceCodeSignIn = deferred(() => z.object({ Ticket, Code: DeviceCodeValue }));
export type DeviceCodeSignIn = z.infer<typeof DeviceCodeSignIn>;
/** A temporary code from the helpdesk as the second step (digits; spaces are ignored). */
export const TemporaryCodeSignIn = deferred(() =>
  z.object({
    Ticket,
    Code: z.string().check(z.trim(), z.minLength(1, 'Code is required'), z.maxLength(32)),
  }),
);
export type TemporaryCodeSignIn = z.infer<typeof TemporaryCodeSignIn>;
/** A device code on its way: until when it works, and what the person calls each device it went to. */
export const DeviceCodeSent = deferred(() => z.object({ ExpiresUtc: z.string(), Devices: z.array(z.string()) }));
export type DeviceCodeSent = z.infer<typeof DeviceCodeSent>;

/** A step-up proof: a passkey's answer to the step-up options, one recovery code, or the code sent to one's devices. */
export const StepUpProof = deferred(() =>
  z.object({
    Passkey: z.optional(WebAuthnResponse),
    RecoveryCode: z.optional(RecoveryCodeValue),
    DeviceCode: z.optional(DeviceCodeValue),
  }),
);
export type StepUpProof = z.infer<typeof StepUpProof>;
export const StepUpResult = deferred(() => z.object({ StepUpUntilUtc: z.string(), Method: SecondFactorMethod }));
export type StepUpResult = z.infer<typeof StepUpResult>;

/**
 * What a reset of someone's sign-in methods removed: their passkeys, recovery codes and devices (each device's
 * credential ends, so it can never be a second step again: the person enrols it anew), and their sessions ended.
 */
export const SignInMethodsReset = deferred(() =>
  z.object({
    PasskeysRemoved: z.int(),
    RecoveryCodesRemoved: z.int(),
    DevicesRemoved: z.int(),
  }),
);
export type SignInMethodsReset = z.infer<typeof SignInMethodsReset>;

export const PASSKEY_NAME_MAX = 64;
const PasskeyName = deferred(() => PlainText(PASSKEY_NAME_MAX, 'Name is required'));
export const PasskeyRegistration = deferred(() => z.object({ Name: PasskeyName, Response: WebAuthnResponse }));
export type PasskeyRegistration = z.infer<typeof PasskeyRegistration>;
export const PasskeyRename = deferred(() => z.object({ Name: PasskeyName }));
export type PasskeyRename = z.infer<typeof PasskeyRename>;

export const Passkey = deferred(() =>
  z.object({
    Id: z.int(),
    Name: z.string(),
    CreatedUtc: z.string(),
    LastUsedUtc: z.nullable(z.string()),
  }),
);
export type Passkey = z.infer<typeof Passkey>;

/** The caller's own sign-in methods (never a secret): what the Sign-in methods page lists. */
export const SignInMethods = deferred(() =>
  z.object({
    Passkeys: z.array(Passkey),
    RecoveryCodesLeft: z.int().check(z.minimum(0)),
    /** The caller's Active devices, which receive second-step codes. */
    ActiveDevices: z.int().check(z.minimum(0)),
    /** Whether this service's policy asks the caller for a second factor after the password. */
    SecondFactorRequired: z.boolean(),
    /** Null when passkeys work here; otherwise why not (the service is served on an IP address, not a name). */
    PasskeysUnavailable: z.nullable(z.string()),
  }),
);
export type SignInMethods = z.infer<typeof SignInMethods>;

/** Shown once: the service keeps only their hashes. */
export const RecoveryCodes = deferred(() => z.object({ Codes: z.array(z.string()) }));
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;
