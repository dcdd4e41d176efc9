import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { LoginResult, Passkey, StepUpResult, WebAuthnResponse } from '../../shared/contract/index.ts';
import { loadApi } from './load-api.ts';

/*
 * The browser's side of passkeys, through @simplewebauthn/browser: each ceremony asks the service for its options,
 * lets the browser (and the person's authenticator) answer, and sends the answer back. Loaded on demand, like the
 * client, so a page that never uses a passkey never downloads this.
 */

const browser = () => import('@simplewebauthn/browser');

/** The browser's answer as the contract carries it (the JSON @simplewebauthn/browser gives). */
const asResponse = (answer: object) => answer as unknown as WebAuthnResponse;

/** Whether this browser can use passkeys at all (WebAuthn), and offers them in the user-name field's autofill. */
export async function passkeySupport(): Promise<{ webAuthn: boolean; autofill: boolean }> {
  const { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } = await browser();
  return { webAuthn: browserSupportsWebAuthn(), autofill: await browserSupportsWebAuthnAutofill() };
}

/**
 * Signs in with a passkey: any discoverable one (no name typed), or with a ticket the second step after a password.
 * `autofill` waits for the person to pick a passkey in the user-name field's suggestions instead of opening a prompt.
 */
export async function signInWithPasskey(options: { ticket?: string; autofill?: boolean } = {}): Promise<LoginResult> {
  const [{ api, endpoints }, { startAuthentication }] = await Promise.all([loadApi(), browser()]);
  const ticket = options.ticket !== undefined ? { Ticket: options.ticket } : {};
  const { Options } = await api.call(endpoints.passkeySignInOptions, { body: ticket });
  const answer = await startAuthentication({
    optionsJSON: Options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: options.autofill ?? false,
  });
  return api.call(endpoints.passkeySignIn, { body: { Response: asResponse(answer), ...ticket } });
}

/** Adds a passkey to the signed-in person's account under a name. */
export async function registerPasskey(name: string): Promise<Passkey> {
  const [{ api, endpoints }, { startRegistration }] = await Promise.all([loadApi(), browser()]);
  const { Options } = await api.call(endpoints.passkeyRegistrationOptions);
  const answer = await startRegistration({
    optionsJSON: Options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return api.call(endpoints.addPasskey, { body: { Name: name, Response: asResponse(answer) } });
}

/** Proves one of the signed-in person's passkeys again (step-up). */
export async function stepUpWithPasskey(): Promise<StepUpResult> {
  const [{ api, endpoints }, { startAuthentication }] = await Promise.all([loadApi(), browser()]);
  const { Options } = await api.call(endpoints.stepUpOptions);
  const answer = await startAuthentication({
    optionsJSON: Options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return api.call(endpoints.stepUp, { body: { Passkey: asResponse(answer) } });
}

/** Cancels a passkey prompt waiting in the user-name field (before a prompt of another kind starts). */
export async function cancelPasskeyPrompt(): Promise<void> {
  const { WebAuthnAbortService } = await browser();
  WebAuthnAbortService.cancelCeremony();
}

/** What a passkey ceremony's failure tells the person: a cancelled prompt is no error worth a red box. */
export function passkeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}
