import type { Browser, Page } from '@playwright/test';
import type { PushMessageUser } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

/** A browser of its own (no shared storage), signed in through the API as `role`. */
async function signedInPage(browser: Browser, role: 'Admin' | 'Helpdesk'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, role);
  return page;
}

async function pushUsers(page: Page): Promise<PushMessageUser[]> {
  const response = await page.request.get('/api/Consumer/PushMessageUsers', { headers: bearer(await pageToken(page)) });
  return (await response.json()) as PushMessageUser[];
}

/** A mark in the page's JavaScript: still there later means the page was never reloaded. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { liveMark: 'kept' }));
const pageKept = (page: Page) => page.evaluate(() => (window as { liveMark?: string }).liveMark);

test('a status changed in one browser shows in the other’s push users list and detail without a reload', async ({
  browser,
}) => {
  const changer = await signedInPage(browser, 'Admin');
  const watcher = await signedInPage(browser, 'Helpdesk');
  await changer.goto('/push-users');
  await watcher.goto('/push-users');
  const user = (await pushUsers(changer)).find((candidate) => candidate.Status === 1);
  if (!user) throw new Error('demo data has no Active push user');
  const watchedRow = watcher.locator(`tr[data-push-user-id="${user.Id}"]`);
  await expect(watchedRow).toContainText('Active');
  await markPage(watcher);

  await changer
    .locator(`tr[data-push-user-id="${user.Id}"]`)
    .getByRole('button', { name: /^Change status/ })
    .click();
  await changer.getByRole('menuitem', { name: 'Disabled' }).click();
  await expect(changer.getByText('Status set to Disabled')).toBeVisible();
  // Within the expect's 5 s, well under the 15 s a list polls at without the stream: the stream brought it.
  await expect(watchedRow).toContainText('Disabled');
  expect(await pageKept(watcher)).toBe('kept');

  // The detail page, opened inside the app (no reload), follows the next change as well.
  await watchedRow.getByRole('link', { name: user.UserName }).click();
  await expect(watcher.getByRole('heading', { name: user.UserName })).toBeVisible();
  await expect(watcher.getByRole('radio', { name: 'Disabled' })).toBeChecked();
  await changer.goto(`/push-users/${user.Id}`);
  await changer.getByText('Active', { exact: true }).first().click();
  await expect(changer.getByText('Status set to Active')).toBeVisible();
  await expect(watcher.getByRole('radio', { name: 'Active' })).toBeChecked();
  expect(await pageKept(watcher)).toBe('kept');
});
