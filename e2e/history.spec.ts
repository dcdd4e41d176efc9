import type { AuthorizationRequest, PushMessageUser } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('a decision with a comment appears on the request timeline at once', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const pending = (await (
    await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=false', {
      headers: bearer(await pageToken(page)),
    })
  ).json()) as AuthorizationRequest[];
  const target = pending[0];
  if (!target) throw new Error('demo data has no pending request');

  await page.goto(`/authorization-requests/${target.Id}`);
  const history = page.getByRole('region', { name: 'History' });
  // The demo data's timeline starts with the request's arrival.
  await expect(history.getByTestId('history-entry')).toHaveCount(1);
  await expect(history.getByTestId('history-entry').first()).toContainText('Created');

  await page.getByRole('button', { name: /^Approve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Called the user, it is their new phone');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device approved')).toBeVisible();

  // Newest first: the decision, by whom, from → to, with the comment; no reload needed.
  const newest = history.getByTestId('history-entry').first();
  await expect(history.getByTestId('history-entry')).toHaveCount(2);
  await expect(newest).toContainText('Decided');
  await expect(newest).toContainText('Pending');
  await expect(newest).toContainText('Authorized');
  await expect(newest).toContainText('DEMO\\admin');
  await expect(newest).toContainText('Called the user, it is their new phone');

  // Local time shown, UTC on keyboard focus as on hover (the focus reaches it under the toast too).
  await newest.locator('time').focus();
  await expect(page.getByRole('tooltip')).toContainText('UTC');
});

test('a status change appears on the push user timeline at once', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/push-users');
  const users = (await (
    await page.request.get('/api/Consumer/PushMessageUsers', { headers: bearer(await pageToken(page)) })
  ).json()) as PushMessageUser[];
  const user = users.find((candidate) => candidate.Status === 1);
  if (!user) throw new Error('demo data has no active push user');

  await page.goto(`/push-users/${user.Id}`);
  const history = page.getByRole('region', { name: 'History' });
  // The demo's story so far: the device's registration.
  await expect(history.getByTestId('history-entry')).toHaveCount(1);
  await expect(history.getByTestId('history-entry').first()).toContainText('Registered');

  await page.getByText('Disabled', { exact: true }).first().click();
  await expect(page.getByText('Status set to Disabled')).toBeVisible();
  await expect(history.getByTestId('history-entry')).toHaveCount(2);
  const newest = history.getByTestId('history-entry').first();
  await expect(newest).toContainText('Status changed');
  await expect(newest).toContainText('Active');
  await expect(newest).toContainText('Disabled');
  await expect(newest).toContainText('DEMO\\helpdesk');
});

test('a server without the history extension gets an explanation, not an error', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/Consumer/History')) calls.push(request.url());
  });
  await signInAs(page, 'Admin');
  await page.route('**/api/Consumer/History?**', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Route not found' }),
    }),
  );
  await page.goto('/push-users/1');
  await expect(page.getByTestId('history-unavailable')).toContainText('does not record a change history');
  expect(calls.length).toBeGreaterThan(0);
});

test('a failed history load says so and can be retried', async ({ page }) => {
  await signInAs(page, 'Admin');
  let fail = true;
  await page.route('**/api/Consumer/History?**', (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Boom.' }),
        })
      : route.continue(),
  );
  await page.goto('/push-users/1');
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByRole('alert')).toContainText('The server had a problem', { timeout: 15_000 });
  fail = false;
  await history.getByRole('button', { name: 'Try again' }).click();
  await expect(history.getByTestId('history-entry').first()).toContainText('Registered');
  await expect(history.getByRole('alert')).toHaveCount(0);
});
