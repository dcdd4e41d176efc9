import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('a session revoked elsewhere sends the person to sign in, then back', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users?status=active');
  await expect(page.locator('tr[data-push-user-id]').first()).toBeVisible();

  const token = await pageToken(page);
  const revoked = await page.request.delete('/api/Consumer/Authentication/Session', { headers: bearer(token) });
  expect(revoked.status()).toBeLessThan(300);

  // The next call to the server finds the session gone (a page whose data is not cached yet).
  await page.getByRole('link', { name: /DEMO\\operator/ }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await expect(page.getByText('Your session has ended')).toBeVisible();

  await page.getByRole('button', { name: /DEMO\\admin/ }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/push-users\/\d+$/);
  await expect(page.getByRole('heading', { name: 'DEMO\\operator' })).toBeVisible();
});

test('signing out revokes the session on the server', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/authorization-requests');
  const token = await pageToken(page);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  const after = await page.request.get('/api/Consumer/Authentication/Session', { headers: bearer(token) });
  expect(after.status()).toBe(401);

  await page.goto('/authorization-requests');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});
