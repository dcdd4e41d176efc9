import type { AuthorizationRequest, PushMessageUser } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('counts by status link to the filtered lists; the chart shows 30 days of requests', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  const headers = bearer(await pageToken(page));
  const pending = (await (
    await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=false', { headers })
  ).json()) as AuthorizationRequest[];
  const all = (await (
    await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=true', { headers })
  ).json()) as AuthorizationRequest[];
  const users = (await (
    await page.request.get('/api/Consumer/PushMessageUsers', { headers })
  ).json()) as PushMessageUser[];
  const byStatus = (status: number) => users.filter((user) => user.Status === status).length;

  await expect(page.getByTestId('count-pending')).toContainText(String(pending.length));
  await expect(page.getByTestId('count-all-requests')).toContainText(String(all.length));
  await expect(page.getByTestId('count-push-active')).toContainText(String(byStatus(1)));
  await expect(page.getByTestId('count-push-disabled')).toContainText(String(byStatus(2)));
  await expect(page.getByTestId('count-push-deleted')).toContainText(String(byStatus(3)));

  // The chart (lazy-loaded) draws 30 days; its summary counts the requests made in that window.
  const chart = page.getByRole('figure', { name: 'Requests per day, last 30 days' });
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeAttached();
  await expect(page.getByTestId('chart-summary')).toContainText('in 30 days');

  await page.getByRole('link', { name: `${byStatus(2)} disabled push users` }).click();
  await expect(page).toHaveURL(/\/push-users\?status=disabled$/);
  await expect(page.getByRole('radio', { name: /Disabled/ })).toBeChecked();

  await page.goto('/');
  await page.getByRole('link', { name: `${pending.length} pending requests` }).click();
  await expect(page).toHaveURL(/\/authorization-requests$/);
  await expect(page.getByRole('heading', { name: 'Authorization requests' })).toBeVisible();

  await page.goto('/');
  await page.getByRole('link', { name: `${all.length} requests in all` }).click();
  await expect(page).toHaveURL(/\/authorization-requests\?view=all$/);
});

test('a decision elsewhere changes the pending count', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/');
  const card = page.getByTestId('count-pending');
  await expect(card.getByRole('link')).toBeVisible();
  const before = Number(await card.getByRole('link').textContent());
  await page.goto('/demo');
  await page.getByRole('button', { name: 'Send the request' }).click();
  await expect(page.getByText('The device asked to be authorized')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(card.getByRole('link')).toHaveText(String(before + 1));
});

test('the chart code loads only on the overview', async ({ page }) => {
  const chartChunks: string[] = [];
  page.on('request', (request) => {
    if (/requests-chart|recharts/.test(request.url())) chartChunks.push(request.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(page.getByRole('heading', { name: 'Authorization requests' })).toBeVisible();
  // Not 'networkidle': the live queue keeps a stream open. Give any stray chunk a moment to be asked for.
  await expect(page.locator('tr[data-request-id]').first()).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(chartChunks).toEqual([]);
  await page.goto('/');
  await expect(page.locator('.recharts-wrapper')).toBeVisible();
  expect(chartChunks.length).toBeGreaterThan(0);
});

test('an operator gets an explanation and no list is called', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (/AuthorizationRequests|PushMessageUsers/i.test(request.url())) listCalls.push(request.url());
  });
  await signInAs(page, 'Operator');
  await page.goto('/');
  await expect(page.getByText('You cannot view the overview')).toBeVisible();
  await expect(page.getByText(/requires the Read permission on Security/)).toBeVisible();
  expect(listCalls).toEqual([]);
});

test('at API 4.0 the overview says why it is empty and calls nothing', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (/AuthorizationRequests|PushMessageUsers/i.test(request.url())) listCalls.push(request.url());
  });
  await signInAs(page, 'Helpdesk', { apiVersion: '4.0' });
  await page.goto('/');
  await expect(page.getByText(/Overview: removed in API 4\.0/)).toBeVisible();
  expect(listCalls).toEqual([]);
});

test('at API 4.0 an account administrator still sees reported codes, and why the rest is missing', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (/AuthorizationRequests|PushMessageUsers/i.test(request.url())) listCalls.push(request.url());
  });
  await signInAs(page, 'Admin', { apiVersion: '4.0' });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Reported codes' })).toBeVisible();
  await expect(page.getByText('No one has reported a code they did not ask for.')).toBeVisible();
  await expect(page.getByText('Authorization requests: removed in API 4.0.')).toBeVisible();
  expect(listCalls).toEqual([]);
});
