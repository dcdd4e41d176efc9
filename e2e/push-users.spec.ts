import type { Page } from '@playwright/test';
import type { PushMessageUser } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

const row = (page: Page, id: number) => page.locator(`tr[data-push-user-id="${id}"]`);

async function pushUsers(page: Page): Promise<PushMessageUser[]> {
  const response = await page.request.get('/api/Consumer/PushMessageUsers', { headers: bearer(await pageToken(page)) });
  return (await response.json()) as PushMessageUser[];
}

async function firstWithStatus(page: Page, status: 1 | 2 | 3): Promise<PushMessageUser> {
  const user = (await pushUsers(page)).find((candidate) => candidate.Status === status);
  if (!user) throw new Error(`demo data has no push user with status ${status}`);
  return user;
}

test('the list shows statuses as words, filters by status and search in the URL', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/push-users');
  const users = await pushUsers(page);
  await expect(page.locator('tr[data-push-user-id]')).toHaveCount(users.length);
  for (const word of ['Active', 'Disabled', 'Deleted']) {
    await expect(page.locator('tbody').getByText(word, { exact: true }).first()).toBeVisible();
  }

  await page.getByText(/^Disabled \(\d+\)$/).click();
  await expect(page).toHaveURL(/status=disabled/);
  await expect(page.locator('tr[data-push-user-id]')).toHaveCount(users.filter((u) => u.Status === 2).length);

  await page.getByText(/^All \(\d+\)$/).click();
  await page.getByRole('textbox', { name: 'Search push users' }).fill('operator');
  await expect(page).toHaveURL(/q=operator/);
  await expect(page.locator('tr[data-push-user-id]')).toHaveCount(1);
  await expect(page.locator('tbody')).toContainText('DEMO\\operator');
});

test('disabling from a row applies at once with a toast', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/push-users');
  const user = await firstWithStatus(page, 1);
  await row(page, user.Id)
    .getByRole('button', { name: /^Change status/ })
    .click();
  await page.getByRole('menuitem', { name: 'Disabled' }).click();
  await expect(page.getByText('Status set to Disabled')).toBeVisible();
  await expect(row(page, user.Id)).toContainText('Disabled');
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(2);
});

test('delete asks for confirmation naming the user and device; cancel keeps it', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users');
  const user = await firstWithStatus(page, 2);

  await row(page, user.Id)
    .getByRole('button', { name: /^Change status/ })
    .click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this push user?' });
  await expect(dialog).toContainText(user.UserName);
  await expect(dialog).toContainText(user.DeviceType);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(2);

  await row(page, user.Id)
    .getByRole('button', { name: /^Change status/ })
    .click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await page.getByRole('dialog', { name: 'Delete this push user?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Status set to Deleted')).toBeVisible();
  await expect(row(page, user.Id)).toContainText('Deleted');
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(3);
});

test('the detail page switches status, and reactivates a deleted user', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users');
  const user = await firstWithStatus(page, 3);
  await page.goto(`/push-users/${user.Id}`);
  await expect(page.getByRole('heading', { name: user.UserName })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Deleted' })).toBeChecked();
  await page.getByText('Active', { exact: true }).first().click();
  await expect(page.getByText('Status set to Active')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Active' })).toBeChecked();

  await page.getByText('Deleted', { exact: true }).first().click();
  await expect(page.getByRole('dialog', { name: 'Delete this push user?' })).toContainText(user.UserName);
});

test('an unknown push user says so', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users/999999');
  await expect(page.getByText('No such push user')).toBeVisible();
});
