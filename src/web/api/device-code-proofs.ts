import type { DeviceCodeSent, LoginResult, StepUpResult } from '../../shared/contract/index.ts';
import { loadApi } from './load-api.ts';

/*
 * A code sent to the person's own Active devices and typed back: the second step after a password (with its ticket),
 * or a step-up in this session. Through the client loaded on demand, like the passkey ceremonies.
 */

export async function sendSignInDeviceCode(ticket: string): Promise<DeviceCodeSent> {
  const { api, endpoints } = await loadApi();
  return api.call(endpoints.deviceCodeSend, { body: { Ticket: ticket } });
}

export async function signInWithDeviceCode(ticket: string, code: string): Promise<LoginResult> {
  const { api, endpoints } = await loadApi();
  return api.call(endpoints.deviceCodeSignIn, { body: { Ticket: ticket, Code: code } });
}

export async function sendStepUpDeviceCode(): Promise<DeviceCodeSent> {
  const { api, endpoints } = await loadApi();
  return api.call(endpoints.stepUpDeviceCode);
}

export async function stepUpWithDeviceCode(code: string): Promise<StepUpResult> {
  const { api, endpoints } = await loadApi();
  return api.call(endpoints.stepUp, { body: { DeviceCode: code } });
}
