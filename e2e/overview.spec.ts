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

  // The chart draws one bar per day for 30 days, each as tall as its count; its summary counts them all.
  const chart = page.getByRole('figure', { name: 'Requests per day, last 30 days' });
  const bars = chart.locator('[data-requests]');
  await expect(bars).toHaveCount(30);
  const drawn = await bars.evaluateAll((elements) =>
    elements.map((bar) => ({ requests: Number(bar.getAttribute('data-requests')), height: bar.clientHeight })),
  );
  const total = drawn.reduce((sum, bar) => sum + bar.requests, 0);
  await expect(page.getByTestId('chart-summary')).toHaveText(
    `${total} ${total === 1 ? 'request' : 'requests'} in 30 days`,
  );
  const tallest = drawn.reduce((a, b) => (b.requests > a.requests ? b : a));
  expect(tallest.requests).toBeGreaterThan(0);
  for (const bar of drawn) {
    // Whole pixels: a bar may round a pixel off its exact share.
    expect(Math.abs(bar.height - (tallest.height * bar.requests) / tallest.requests)).toBeLessThanOrEqual(1);
  }

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
