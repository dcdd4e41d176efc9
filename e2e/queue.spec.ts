import type { Page } from '@playwright/test';
import type { AuthorizationRequest } from '../src/shared/contract/index.ts';
import { apiLogin, bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

const rows = (page: Page) => page.locator('tbody tr[data-request-id]');

async function pendingRequests(page: Page): Promise<AuthorizationRequest[]> {
  const response = await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=false', {
    headers: bearer(await pageToken(page)),
  });
  return (await response.json()) as AuthorizationRequest[];
}

test('the queue shows pending requests, all requests, search and sort from the URL', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const pending = await pendingRequests(page);
  await expect(rows(page)).toHaveCount(pending.length);
  await expect(page.getByTestId('pending-count')).toHaveText(String(pending.length));
  // The pending view has no status column: every row there is pending.
  await expect(page.getByRole('columnheader', { name: 'Status' })).toHaveCount(0);

  await page.getByText('All requests').click();
  await expect(page).toHaveURL(/view=all/);
  await expect(rows(page).getByText('Authorized', { exact: true }).first()).toBeVisible();
  await expect(rows(page).getByText('Rejected', { exact: true }).first()).toBeVisible();
  expect(await rows(page).count()).toBeGreaterThan(pending.length);

  await page.getByRole('textbox', { name: 'Search requests' }).fill('pixel');
  await expect(page).toHaveURL(/q=pixel/);
  // Retried as one assertion: rows read one by one could leave the list between the read and the check.
  await expect(rows(page).first()).toBeVisible();
  await expect(rows(page).filter({ hasNotText: /pixel/i })).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Oldest first' });
  await expect(page).toHaveURL(/sort=oldest/);

  // A shared link opens the same view.
  await page.reload();
  await expect(page.getByRole('radio', { name: 'All requests' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Search requests' })).toHaveValue('pixel');
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('oldest');
});

test('the header and queue tooltips show on hover and hide when the mouse leaves', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).first()).toBeVisible();
  const tooltip = (text: string | RegExp) => page.getByRole('tooltip').filter({ hasText: text });
  const away = () => page.getByRole('heading', { level: 1 }).hover();

  await page.getByRole('button', { name: 'Refresh' }).hover();
  await expect(tooltip('Refresh now')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toHaveAccessibleDescription('Refresh now');
  await away();
  await expect(tooltip('Refresh now')).toBeHidden();
  // Again, once the tooltip exists.
  await page.getByRole('button', { name: 'Refresh' }).hover();
  await expect(tooltip('Refresh now')).toBeVisible();

  await page.getByTestId('api-version').hover();
  await expect(tooltip('API version in use; change it in Settings')).toBeVisible();
  await expect(tooltip('Refresh now')).toBeHidden();
  await page.getByTestId('demo-badge').hover();
  await expect(tooltip(/^Demo mode/)).toBeVisible();
  await page.getByRole('button', { name: /^Switch to (dark|light) theme$/ }).hover();
  await expect(tooltip(/^Switch to (dark|light) theme$/)).toBeVisible();
  await away();
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('approving with a comment: toast, the row leaves, focus moves to the next row', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = rows(page).first();
  const id = Number(await first.getAttribute('data-request-id'));
  const nextId = await rows(page).nth(1).getAttribute('data-request-id');

  await first.getByRole('button', { name: /^Approve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Verified by phone');
  await dialog.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByText('Device approved')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-request-focus="${nextId}"]`)).toBeFocused();

  await page.goto(`/authorization-requests/${id}`);
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${id}`) })).toContainText('Authorized');
  await expect(page.getByText('Verified by phone').first()).toBeVisible();
  await expect(page.getByText('DEMO\\admin').first()).toBeVisible();
});

test('rejecting with a comment from the detail page', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/authorization-requests');
  const [target] = await pendingRequests(page);
  if (!target) throw new Error('demo data has no pending request');
  await page.goto(`/authorization-requests/${target.Id}`);
  await page.getByRole('button', { name: /^Reject/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject this request?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('User did not ask for this device');
  await dialog.getByRole('button', { name: 'Reject' }).click();

  await expect(page.getByText('Request rejected')).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${target.Id}`) })).toContainText('Rejected');
  await expect(page.getByText('User did not ask for this device').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  expect((await pendingRequests(page)).map((r) => r.Id)).not.toContain(target.Id);
});

test('a request someone else decided meanwhile is explained and the queue refreshes', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = rows(page).first();
  const id = Number(await first.getAttribute('data-request-id'));
  const guid = (await pendingRequests(page)).find((r) => r.Id === id)?.RequestGuid;

  await first.getByRole('button', { name: /^Approve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Looks fine');

  const helpdesk = await apiLogin(page.request, 'Helpdesk');
  const other = await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
    headers: bearer(helpdesk.Token),
    data: { RequestId: id, RequestGuid: guid, Authorized: false, Comment: 'Rejected first' },
  });
  expect(other.ok()).toBe(true);

  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByText('Someone already decided this request')).toBeVisible();
  await expect(dialog).toContainText('helpdesk');
  await expect(dialog.getByRole('textbox', { name: /Comment/ })).toHaveValue('Looks fine');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator(`tr[data-request-id="${id}"]`)).toHaveCount(0);
});

test('live queue: a new request is counted, not inserted, until the person asks for it', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByText(/· live/)).toBeVisible();
  const before = await rows(page).count();
  const firstId = await rows(page).first().getAttribute('data-request-id');
  const created = await page.request.post('/api/Demo/AuthorizationRequests', {
    headers: bearer(await pageToken(page)),
    data: { UserName: 'ACME\\new.joiner', Manufacturer: 'Fairphone', Model: 'Fairphone 5' },
  });
  expect(created.status()).toBe(201);
  const show = page.getByRole('button', { name: 'Show 1 new request' });
  await expect(show).toBeVisible();
  // Nothing moved under the person's eyes.
  await expect(rows(page)).toHaveCount(before);
  await expect(rows(page).first()).toHaveAttribute('data-request-id', firstId ?? '');
  await show.click();
  await expect(page.getByText('ACME\\new.joiner')).toBeVisible();
  await expect(rows(page)).toHaveCount(before + 1);
  await expect(show).toBeHidden();
  await expect(page.getByTestId('pending-count')).toHaveText(String(before + 1));
});

test('live queue: a request decided by another admin greys out at once', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(page.getByText(/· live/)).toBeVisible();
  const row = rows(page).nth(1);
  const id = Number(await row.getAttribute('data-request-id'));
  const guid = (await pendingRequests(page)).find((r) => r.Id === id)?.RequestGuid;
  const helpdesk = await apiLogin(page.request, 'Helpdesk');
  const decided = await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
    headers: bearer(helpdesk.Token),
    data: { RequestId: id, RequestGuid: guid, Authorized: true },
  });
  expect(decided.ok()).toBe(true);
  const stale = page.locator(`tr[data-request-id="${id}"]`);
  await expect(stale).toHaveAttribute('data-stale', 'true', { timeout: 3_000 });
  await expect(stale).toContainText('Authorized');
  await expect(stale).toContainText(`by ${helpdesk.UserName}`);
  await expect(stale.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
});

test('without the change stream (a server without the extension) the queue polls', async ({ page }) => {
  await page.route('**/api/Consumer/Events', (route) =>
    route.fulfill({ status: 404, contentType: 'application/problem+json', body: '{"status":404}' }),
  );
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByText(/refreshes every 15 s/)).toBeVisible();
});
