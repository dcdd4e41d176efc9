import { bearer, resetDemo, signInAs } from './support/demo.ts';
import { type E2eService, expect, startE2eService, test } from './support/test.ts';

test('a stored session revoked elsewhere goes straight to sign-in at load', async ({ page, request }) => {
  await resetDemo(request);
  const token = await signInAs(page, 'Admin');
  const revoked = await page.request.delete('/api/Consumer/Authentication/Session', { headers: bearer(token) });
  expect(revoked.status()).toBe(204);
  // The two-factor page makes no call of its own: only the check at load can find the session gone.
  await page.goto('/two-factor');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await expect(page.getByText('Your session has ended')).toBeVisible();
});

test('sign-out says so only when the server confirmed it', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/two-factor');
  await expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible();
  await page.route('**/api/Consumer/Authentication/Session', (route) =>
    route.request().method() === 'DELETE' ? route.abort('connectionrefused') : route.continue(),
  );
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('The server could not be reached to end the session')).toBeVisible();
});

/** Its own service with a 21-second idle setting (the warning 7 seconds ahead), so the deadlines come within a test's reach. */
test.describe('with SESSION_IDLE_MINUTES=0.35', () => {
  let service: E2eService;
  test.beforeAll(async () => {
    service = await startE2eService({ SESSION_IDLE_MINUTES: '0.35' });
  });
  test.afterAll(async () => {
    await service.stop();
  });

  test('an active admin stays signed in; left alone, the warning comes, "Stay signed in" extends, then the idle deadline signs out', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { origin } = service;
    await signInAs(page, 'Admin', { origin });
    await page.goto(`${origin}/authorization-requests`);
    await expect(page.locator('tr[data-request-id]').first()).toBeVisible();

    // Half as long again as the idle period, working: a click between the queue and push users every 4 seconds
    // outlives the deadline an idle session would have met.
    const started = Date.now();
    while (Date.now() - started < 32_000) {
      await page.waitForTimeout(4_000);
      const toUsers = page.url().includes('/authorization-requests');
      await page
        .getByRole('navigation')
        .getByRole('link', { name: toUsers ? /^Push users/ : /^Authorization requests/ })
        .click();
      await expect(page).not.toHaveURL(/\/login/);
      await expect(page.getByTestId('session-expiry-dialog')).toHaveCount(0);
    }
    await page.goto(`${origin}/authorization-requests`);
    await expect(page.locator('tr[data-request-id]').first()).toBeVisible();

    // Left alone (the queue still polls and streams): the warning comes with a countdown.
    const dialog = page.getByRole('dialog', { name: 'Your session is about to end' });
    await expect(dialog).toBeVisible({ timeout: 60_000 });
    await expect(dialog.getByTestId('session-countdown')).toHaveText(/^0:0\d$/);
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(dialog).toBeHidden();

    // Left alone again: warned, then signed out at the idle deadline.
    await expect(dialog).toBeVisible({ timeout: 60_000 });
    await expect(page).toHaveURL(/\/login\?redirect=/, { timeout: 30_000 });
    await expect(page.getByText('Your session has ended')).toBeVisible();
  });
});
