import { type APIRequestContext, expect, test } from '@playwright/test';
import type { IssuedTemporaryCode, LoginResult, RecoveryCodes } from '../src/shared/contract/index.ts';
import { account, bearer } from './support/demo.ts';
import { lookAt } from './support/look.ts';
import { type E2eService, startE2eService } from './support/test.ts';

/*
 * A temporary code typed as the second step of sign-in, on a service that asks writers for a second factor. The
 * helpdesk account (a writer: Contain) has only a Disabled phone, so nothing reachable; the administrator, signed in
 * with their own second factor through the API, issues the code; the person types password and code on the page.
 */

const PERSON = account('Helpdesk');
const ADMIN = account('Admin');

let service: E2eService;

test.beforeAll(async () => {
  service = await startE2eService({ SECOND_FACTOR: 'writers' });
});
test.afterAll(() => service.stop());

/** The administrator's full session: a first recovery code made at the enrolment-only sign-in, then used. */
async function adminSession(request: APIRequestContext): Promise<string> {
  const signIn = () =>
    request.post(`${service.origin}/api/Consumer/Authentication`, {
      data: { UserName: ADMIN.userName, Password: ADMIN.password },
    });
  const first = await signIn();
  expect(first.status(), await first.text()).toBe(200);
  const { Token } = (await first.json()) as LoginResult;
  const made = await request.post(`${service.origin}/api/Admin/Accounts/Me/RecoveryCodes`, { headers: bearer(Token) });
  expect(made.status(), await made.text()).toBe(201);
  const [code] = ((await made.json()) as RecoveryCodes).Codes;
  const asked = await signIn();
  expect(asked.status()).toBe(401);
  const { ticket } = (await asked.json()) as { ticket: string };
  const second = await request.post(`${service.origin}/api/Consumer/Authentication/RecoveryCode`, {
    data: { Ticket: ticket, Code: code },
  });
  expect(second.status(), await second.text()).toBe(200);
  return ((await second.json()) as LoginResult).Token;
}

test('a person with no second factor in reach signs in with password and the helpdesk’s temporary code', async ({
  page,
}) => {
  const adminToken = await adminSession(page.request);
  const issued = await page.request.post(
    `${service.origin}/api/People/${encodeURIComponent(PERSON.userName)}/TemporaryCodes`,
    { headers: bearer(adminToken), data: {} },
  );
  expect(issued.status(), await issued.text()).toBe(201);
  const { Code } = (await issued.json()) as IssuedTemporaryCode;

  await page.goto(`${service.origin}/login`);
  await page.getByLabel('User name').fill(PERSON.userName);
  await page.getByRole('textbox', { name: 'Password' }).fill(PERSON.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Nothing else is in reach, so the temporary code's form is open at once.
  const typed = page.getByRole('textbox', { name: 'Temporary code' });
  await expect(typed).toBeVisible();
  await lookAt(page, 'temporary-code-second-step');

  await typed.fill('0000 0000 0000');
  await page.getByRole('button', { name: 'Use the temporary code' }).click();
  await expect(page.getByRole('alert')).toContainText('helpdesk');

  await typed.fill(Code);
  await page.getByRole('button', { name: 'Use the temporary code' }).click();
  await expect(page.getByTestId('user-menu')).toContainText(PERSON.userName);
  await expect(page).not.toHaveURL(/\/login/);
});
