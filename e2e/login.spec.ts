import { resetDemo } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('a demo account fills the form in one click and signs in', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: /DEMO\\helpdesk/ }).click();
  await expect(page.getByLabel('User name')).toHaveValue('DEMO\\helpdesk');
  await expect(page.getByRole('textbox', { name: 'Password' })).toHaveValue('Helpdesk#2026');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/authorization-requests$/);
  await expect(page.getByRole('heading', { name: 'Authorization requests' })).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText('DEMO\\helpdesk');
  await expect(page.getByTestId('api-version')).toHaveText('API 3.3');
});

test('an anonymous visitor is sent to sign in, a wrong password is refused in words, then back where they were', async ({
  page,
}) => {
  await page.goto('/push-users?status=disabled');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel('User name').fill('DEMO\\admin');
  await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The user name or password is not right');
  await expect(page).toHaveURL(/\/login\?redirect=/);

  await page.getByRole('button', { name: /DEMO\\admin/ }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/push-users\?status=disabled$/);
  await expect(page.getByRole('radio', { name: /Disabled/ })).toBeChecked();
});

test('at an IP address the sign-in page does not ask for the passkey options the service would refuse', async ({
  page,
}) => {
  const asked: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/Passkey/Options')) asked.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/login');
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  // Signed out, nothing stays open: the page is done asking once the network has been quiet for a moment.
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
});
