import type { Page } from '@playwright/test';
import type { AuthorizationRequest } from '../src/shared/contract/index.ts';
import { apiLogin, bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

const rows = (page: Page) => page.locator('tbody tr[data-request-id]');

test('bulk approve with one comment: shift-click range, per-item results, one already decided', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).nth(2)).toBeVisible();
  const ids = await Promise.all(
    [0, 1, 2].map(async (i) => Number(await rows(page).nth(i).getAttribute('data-request-id'))),
  );

  // Click the first, shift-click the third: three selected.
  await rows(page).nth(0).getByRole('checkbox').click();
  await rows(page)
    .nth(2)
    .getByRole('checkbox')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected')).toBeVisible();
  for (const i of [0, 1, 2]) await expect(rows(page).nth(i).getByRole('checkbox')).toBeChecked();

  // The dialog takes the three; meanwhile another admin decides the second one.
  await page.getByRole('button', { name: 'Approve 3' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve 3 requests?' });
  await expect(dialog).toBeVisible();
  const pending = (await (
    await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=false', {
      headers: bearer(await pageToken(page)),
    })
  ).json()) as AuthorizationRequest[];
  const second = pending.find((request) => request.Id === ids[1]);
  const helpdesk = await apiLogin(page.request, 'Helpdesk');
  expect(
    (
      await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
        headers: bearer(helpdesk.Token),
        data: { RequestId: second?.Id, RequestGuid: second?.RequestGuid, Authorized: false },
      })
    ).ok(),
  ).toBe(true);

  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Batch verified');
  await dialog.getByRole('button', { name: 'Approve 3 requests' }).click();
  await expect(dialog.getByRole('status')).toHaveText('3 of 3: 2 done, 1 already decided, 0 failed');
  await expect(dialog.locator(`[data-bulk-id="${ids[1]}"]`)).toContainText('Already decided');
  await expect(dialog.locator(`[data-bulk-id="${ids[0]}"]`)).toContainText('Done');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  for (const id of ids) await expect(page.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);

  await page.goto(`/authorization-requests/${ids[0]}`);
  await expect(page.getByText('Batch verified').first()).toBeVisible();
});

test('bulk failures are listed with the reason and can be retried', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).nth(1)).toBeVisible();
  await page.getByRole('checkbox', { name: /Select all \d+ matching requests/ }).check();
  const count = await rows(page).count();
  await expect(page.getByText(`${count} selected`)).toBeVisible();

  // The network drops the first decision call.
  let failed = false;
  await page.route('**/api/Consumer/Authentication/AuthorizeDevice', async (route) => {
    if (!failed) {
      failed = true;
      await route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: 503, detail: 'Try later' }),
      });
      return;
    }
    await route.continue();
  });
  await page.getByRole('button', { name: `Reject ${count}` }).click();
  const dialog = page.getByRole('dialog', { name: `Reject ${count} requests?` });
  await dialog.getByRole('button', { name: `Reject ${count} requests` }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    `${count} of ${count}: ${count - 1} done, 0 already decided, 1 failed`,
  );
  await dialog.getByRole('button', { name: 'Retry failed (1)' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    `${count} of ${count}: ${count} done, 0 already decided, 0 failed`,
  );
});

test('bulk status change on push users states the count', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users?status=active');
  const userRows = page.locator('tbody tr[data-push-user-id]');
  await expect(userRows.nth(1)).toBeVisible();
  const ids = await Promise.all([0, 1].map(async (i) => userRows.nth(i).getAttribute('data-push-user-id')));
  await userRows.nth(0).getByRole('checkbox').click();
  await userRows.nth(1).getByRole('checkbox').click();
  // Both are Active: no change that changes nothing is offered.
  await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Disable 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set 2 push users to Disabled?' });
  await dialog.getByRole('button', { name: 'Set 2 push users to Disabled' }).click();
  await expect(dialog.getByRole('status')).toHaveText('2 of 2: 2 done, 0 already decided, 0 failed');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  for (const id of ids) await expect(page.locator(`tr[data-push-user-id="${id}"]`)).toHaveCount(0);
  await page.goto('/push-users?status=disabled');
  for (const id of ids) await expect(page.locator(`tr[data-push-user-id="${id}"]`)).toHaveCount(1);
});
