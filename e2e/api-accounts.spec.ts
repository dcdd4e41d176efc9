import type { APIRequestContext } from '@playwright/test';
import { resetDemo, signInAs } from './support/demo.ts';
import { lookAt } from './support/look.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

/** The published SDK's call: the site root, Basic credentials (Playwright's request context is not a browser). */
const sdkCall = (request: APIRequestContext, userName: string, secret: string) =>
  request.get('/Consumer/v3.2/PushMessageUsers', {
    headers: { Authorization: `Basic ${Buffer.from(`${userName}:${secret}`).toString('base64')}` },
  });

test('an admin adds an API account, sees its secret once, rotates it; the secret works for scripts and never at the sign-in page', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const userName = `SVC\\sync.${Date.now().toString(36)}`;
  await signInAs(page, 'Admin');
  await page.goto('/accounts');
  await expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin');

  await page.getByRole('button', { name: 'Add an API account' }).click();
  const add = page.getByRole('dialog', { name: 'Add an API account' });
  await add.getByRole('textbox', { name: 'User name' }).fill(userName);
  await add.getByRole('checkbox', { name: 'Security Write' }).check();
  // Only Security permissions are offered.
  await expect(add.getByRole('checkbox', { name: /Accounts/ })).toHaveCount(0);
  await add.getByRole('button', { name: 'Create API account' }).click();

  const shown = page.getByRole('dialog', { name: `API account ${userName} created` });
  await expect(shown.getByText('You won’t see this again')).toBeVisible();
  await expect(shown.getByRole('button', { name: 'Copy the secret' })).toBeVisible();
  const secret = await shown.getByTestId('api-secret').inputValue();
  expect(secret).toMatch(/^tcs_[a-z2-7]{32}$/);
  await lookAt(page, 'api-account-secret', { fullPage: false });
  // Escape does not lose it unseen.
  await page.keyboard.press('Escape');
  await expect(shown).toBeVisible();
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toBeHidden();

  // The SDK's calls work with it, the Basic challenge included.
  expect((await sdkCall(request, userName, secret)).status()).toBe(200);

  // Its drawer: the kind, its last use, Rotate secret (and no password reset).
  const drawer = page.getByRole('dialog', { name: userName });
  await expect(drawer.getByText('API account', { exact: true })).toBeVisible();
  await expect(drawer.getByText('API account created', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Reset password' })).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Rotate secret' }).click();
  const confirm = page.getByRole('dialog', { name: `Rotate the secret of ${userName}?` });
  await expect(confirm).toContainText('stops working at once');
  await confirm.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: `New secret for ${userName}` });
  const next = await rotated.getByTestId('api-secret').inputValue();
  expect(next).toMatch(/^tcs_[a-z2-7]{32}$/);
  expect(next).not.toBe(secret);
  await rotated.getByRole('button', { name: 'I have copied it' }).click();
  await expect(drawer.getByText('Secret rotated', { exact: true })).toBeVisible();
  expect((await sdkCall(request, userName, secret)).status()).toBe(401);
  expect((await sdkCall(request, userName, next)).status()).toBe(200);

  // In the list: marked, with its last use, and no Accounts permission to tick.
  await drawer.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('textbox', { name: 'Search accounts' }).fill('sync.');
  const row = page.getByRole('row', { name: new RegExp(userName.replace(/\\/g, '\\\\')) });
  await expect(row.getByText('API account')).toBeVisible();
  await expect(row.getByText('last use')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Accounts Read for ${userName}` })).toBeDisabled();
  await lookAt(page, 'api-account-row');

  // The attacker holds the secret and a browser: the dashboard's sign-in refuses it in words.
  const attacker = await page.context().browser()?.newContext();
  if (!attacker) throw new Error('no browser');
  const login = await attacker.newPage();
  await login.goto('/login');
  await login.getByRole('textbox', { name: 'User name' }).fill(userName);
  await login.getByRole('textbox', { name: 'Password' }).fill(next);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(login.getByText('cannot sign in to the dashboard')).toBeVisible();
  await expect(login).toHaveURL(/\/login/);
  await expect(login.getByTestId('user-menu')).toHaveCount(0);
  await lookAt(login, 'api-account-login-refused', { fullPage: false });
  await attacker.close();
});
