import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('an unreachable server shows an error with retry, never a blank page', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.route('**/api/Consumer/PushMessageUsers', (route) => route.abort('connectionrefused'));
  await page.goto('/push-users');
  await expect(page.getByRole('alert')).toContainText('Cannot reach the server', { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Push users' })).toBeVisible();

  await page.unroute('**/api/Consumer/PushMessageUsers');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('tr[data-push-user-id]').first()).toBeVisible();
});

test('a server error while deciding keeps the dialog and the comment', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Approve/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Checked with the user');

  await page.route('**/api/Consumer/Authentication/AuthorizeDevice', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'Try later.' }),
    }),
  );
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The server had a problem');
  await expect(dialog.getByRole('textbox', { name: /Comment/ })).toHaveValue('Checked with the user');

  await page.unroute('**/api/Consumer/Authentication/AuthorizeDevice');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device approved')).toBeVisible();
});

test('an unknown page and an unknown request id are explained', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests/999999');
  await expect(page.getByText('No such authorization request')).toBeVisible();
  await page.goto('/no-such-page');
  await expect(page.getByText('No such page')).toBeVisible();
});

test('the layout works on a phone: navigation behind the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  // Rows are cards on a phone (e2e/phone.spec.ts covers them).
  await expect(page.locator('li [data-request-id]').first()).toBeVisible();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: /Push users/ }).click();
  await expect(page).toHaveURL(/\/push-users$/);
  await expect(page.getByRole('heading', { name: 'Push users' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/phone-push-users-light.png' });
});
