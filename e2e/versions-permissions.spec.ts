import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('choosing API 4.0 in settings: the queue and push users say removed, and make no call', async ({ page }) => {
  await signInAs(page, 'Admin');
  const removedCalls: string[] = [];
  page.on('request', (request) => {
    if (/AuthorizationRequests|PushMessageUsers/i.test(request.url())) removedCalls.push(request.url());
  });
  await page.goto('/settings');
  await page.getByRole('combobox', { name: 'API version' }).selectOption('API 4.0');
  await expect(page.getByRole('table', { name: 'Features in API 4.0' })).toContainText('removed in API 4.0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Using API 4.0')).toBeVisible();
  await expect(page.getByTestId('api-version')).toHaveText('API 4.0');
  removedCalls.length = 0;

  await page.getByRole('link', { name: /Authorization requests/ }).click();
  await expect(page.getByText('Authorization requests: removed in API 4.0')).toBeVisible();
  await page.getByRole('link', { name: /Push users/ }).click();
  await expect(page.getByText('Push users: removed in API 4.0')).toBeVisible();
  await page.goto('/push-users/3');
  await expect(page.getByText('Push users: removed in API 4.0')).toBeVisible();
  expect(removedCalls).toEqual([]);

  // Two-factor tokens still work in 4.0.
  await page.getByRole('link', { name: /Two-factor tokens/ }).click();
  await expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible();
});

test('the version list comes from the server and the default is marked', async ({ page }) => {
  await signInAs(page, 'Auditor');
  await page.goto('/settings');
  const versions = page.getByRole('combobox', { name: 'API version' });
  await expect(versions.getByRole('option')).toHaveText([
    'Server default (3.3)',
    ...['3.0', '3.1', '3.2', '3.3', '4.0'].map((version) => `API ${version}`),
  ]);
});

test('an auditor (Read only) sees decisions and status changes disabled, with the reason', async ({ page }) => {
  await signInAs(page, 'Auditor');
  await page.goto('/authorization-requests');
  const approve = page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Approve/ });
  await expect(approve).toHaveAttribute('aria-disabled', 'true');
  await approve.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Requires Write on Security');
  await approve.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto('/push-users');
  const change = page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Change status/ });
  await expect(change).toHaveAttribute('aria-disabled', 'true');
  await change.click({ force: true });
  await expect(page.getByRole('menu')).toHaveCount(0);

  await page.locator('tbody tr').first().getByRole('link').click();
  await expect(page.getByRole('radiogroup', { name: 'Status', exact: true })).toBeVisible();
  // In the page: the tooltip of the list's button, focused by the click above, may still be fading out.
  await expect(page.getByRole('main').getByText('Requires Write on Security')).toBeVisible();
});

test('an operator (no Security permission) gets an explanation, not an error', async ({ page }) => {
  await signInAs(page, 'Operator');
  const calls: string[] = [];
  page.on('request', (request) => {
    if (/AuthorizationRequests|PushMessageUsers/i.test(request.url())) calls.push(request.url());
  });
  await page.goto('/authorization-requests');
  await expect(page.getByText('You cannot view authorization requests')).toBeVisible();
  await expect(page.getByText(/requires the Read permission on Security/)).toBeVisible();
  await page.goto('/push-users');
  await expect(page.getByText('You cannot view push users')).toBeVisible();
  expect(calls).toEqual([]);
  await expect(page.getByTestId('pending-count')).toHaveCount(0);
});
