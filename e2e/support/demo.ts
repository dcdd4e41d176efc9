import type { APIRequestContext, Page } from '@playwright/test';
import { type ApiVersion, DEMO_ACCOUNTS, type LoginResult } from '../../src/shared/contract/index.ts';
import { SESSION_STORAGE_KEY, SETTINGS_STORAGE_KEY, sessionFromLogin } from '../../src/shared/stored-session.ts';

export type Role = (typeof DEMO_ACCOUNTS)[number]['role'];

export function account(role: Role) {
  const found = DEMO_ACCOUNTS.find((candidate) => candidate.role === role);
  if (!found) throw new Error(`no demo account ${role}`);
  return found;
}

export async function apiLogin(request: APIRequestContext, role: Role, origin = ''): Promise<LoginResult> {
  const { userName, password } = account(role);
  const response = await request.post(`${origin}/api/Consumer/Authentication`, {
    data: { UserName: userName, Password: password },
  });
  if (!response.ok()) throw new Error(`login as ${role} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as LoginResult;
}

export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

/** Every spec starts from the same demo data. */
export async function resetDemo(request: APIRequestContext): Promise<void> {
  const { Token } = await apiLogin(request, 'Admin');
  const response = await request.post('/api/Demo/Reset', { headers: bearer(Token) });
  if (response.status() !== 204) throw new Error(`reset failed: ${response.status()}`);
}

/**
 * Signs in through the API and hands the session to the page as the login screen would, so specs that are not about
 * signing in start on their page at once. Returns the token for calls the test makes as the same person.
 */
export async function signInAs(
  page: Page,
  role: Role,
  {
    apiVersion = '3.3',
    settings,
    origin = '',
  }: { apiVersion?: string; settings?: Record<string, unknown>; origin?: string } = {},
): Promise<string> {
  const result = await apiLogin(page.request, role, origin);
  const session = sessionFromLogin(result, apiVersion as ApiVersion);
  await page.addInitScript(
    ([value, stored, sessionKey, settingsKey]) => {
      // Once per tab, like a real sign-in: a later reload must not bring back a session the app has dropped.
      if (window.sessionStorage.getItem('e2e.signed-in')) return;
      window.sessionStorage.setItem('e2e.signed-in', '1');
      window.sessionStorage.setItem(sessionKey, value);
      if (stored) window.localStorage.setItem(settingsKey, stored);
    },
    [
      JSON.stringify(session),
      settings ? JSON.stringify(settings) : '',
      SESSION_STORAGE_KEY,
      SETTINGS_STORAGE_KEY,
    ] as const,
  );
  return result.Token;
}

/** The token of the session the page is using right now. */
export async function pageToken(page: Page): Promise<string> {
  const raw = await page.evaluate((key) => window.sessionStorage.getItem(key), SESSION_STORAGE_KEY);
  if (!raw) throw new Error('the page has no session');
  return (JSON.parse(raw) as { token: string }).token;
}
