import type { Page } from '@playwright/test';
import type { AuthorizationRequest } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

// The dashboard under faults (500s, time-outs, the server going away mid-session), and two admins in two browsers
// deciding the same request.

test.beforeEach(async ({ request }) => resetDemo(request));

const problem = (status: number, title: string) => ({
  status,
  contentType: 'application/problem+json',
  body: JSON.stringify({ type: 'about:blank', title, status, detail: `${title}.` }),
});

async function expectNoWhiteScreen(page: Page) {
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

test('the queue answering 500: a clear message, the shell stays, Try again recovers', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.route('**/api/Consumer/Authentication/AuthorizationRequests?**', (route) =>
    route.fulfill(problem(500, 'Internal Server Error')),
  );
  await page.goto('/authorization-requests');
  await expect(page.getByRole('alert').filter({ hasText: 'The server had a problem' })).toBeVisible({
    timeout: 15_000,
  });
  await expectNoWhiteScreen(page);

  await page.unroute('**/api/Consumer/Authentication/AuthorizationRequests?**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('tr[data-request-id]').first()).toBeVisible();
});

test('the server going away mid-session: pages explain, a decision keeps its comment, all recovers', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = page.locator('tr[data-request-id]').first();
  await expect(first).toBeVisible();
  const id = Number(await first.getAttribute('data-request-id'));

  // Everything under /api now fails as if the service had stopped.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Push users/ })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot reach the server' })).toBeVisible({
    timeout: 15_000,
  });
  await expectNoWhiteScreen(page);

  await page.goto(`/authorization-requests/${id}`);
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot reach the server' })).toBeVisible({
    timeout: 15_000,
  });
  await expectNoWhiteScreen(page);

  // The service comes back: the page recovers with its own Try again, then a decision fails while it is away
  // again and keeps the comment until it succeeds.
  await page.unroute('**/api/**');
  await page.getByRole('button', { name: 'Try again' }).first().click();
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${id}`) })).toBeVisible();

  await page.getByRole('button', { name: /^Approve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Verified in person at the desk');
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Cannot reach the server');
  await expect(dialog.getByRole('alert')).toContainText('Your comment is kept');
  await expect(dialog.getByRole('textbox', { name: /Comment/ })).toHaveValue('Verified in person at the desk');

  await page.unroute('**/api/**');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device approved')).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${id}`) })).toContainText('Authorized');
});

test('two admins in two browsers decide the same request: the second is told who decided first', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const helpdeskContext = await browser.newContext();
  try {
    const admin = await adminContext.newPage();
    const helpdesk = await helpdeskContext.newPage();
    await signInAs(admin, 'Admin');
    await signInAs(helpdesk, 'Helpdesk');
    await admin.goto('/authorization-requests');
    const pending = (await (
      await admin.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=false', {
        headers: bearer(await pageToken(admin)),
      })
    ).json()) as AuthorizationRequest[];
    const target = pending[0];
    if (!target) throw new Error('demo data has no pending request');

    // Both open the same request and start deciding.
    await admin.goto(`/authorization-requests/${target.Id}`);
    await helpdesk.goto(`/authorization-requests/${target.Id}`);
    await helpdesk.getByRole('button', { name: /^Reject/ }).click();
    const helpdeskDialog = helpdesk.getByRole('dialog', { name: 'Reject this request?' });
    await helpdeskDialog.getByRole('textbox', { name: /Comment/ }).fill('Looks suspicious');

    await admin.getByRole('button', { name: /^Approve/ }).click();
    await admin.getByRole('dialog', { name: 'Approve this device?' }).getByRole('button', { name: 'Approve' }).click();
    await expect(admin.getByText('Device approved')).toBeVisible();

    await helpdeskDialog.getByRole('button', { name: 'Reject' }).click();
    await expect(helpdeskDialog.getByText('Someone already decided this request')).toBeVisible();
    await expect(helpdeskDialog).toContainText('already authorized by DEMO\\admin');
    await expect(helpdeskDialog.getByRole('textbox', { name: /Comment/ })).toHaveValue('Looks suspicious');
    await helpdeskDialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(helpdesk.getByRole('heading', { name: new RegExp(`Request #${target.Id}`) })).toContainText(
      'Authorized',
    );
    await expect(helpdesk.getByRole('button', { name: /^Reject/ })).toHaveCount(0);
  } finally {
    await adminContext.close();
    await helpdeskContext.close();
  }
});

test('a server that accepts the request and never answers: a message after 20 s, not an endless spinner', async ({
  page,
}) => {
  await page.clock.install();
  await signInAs(page, 'Admin');
  let hang = true;
  await page.route('**/api/Consumer/PushMessageUsers', async (route) => {
    if (!hang) return route.continue();
    // Never answers; the page gives up on its own and aborts the request.
  });
  await page.goto('/push-users');
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toBeVisible();

  // Fast-forward through the first attempt and the retries (20 s each, plus back-off).
  const alert = page.getByRole('alert').filter({ hasText: 'Cannot reach the server' });
  for (let step = 0; step < 12 && !(await alert.isVisible()); step += 1) {
    await page.clock.runFor(10_000);
    await page.waitForTimeout(100);
  }
  await expect(alert).toContainText('within 20 seconds');
  await expectNoWhiteScreen(page);

  hang = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('tr[data-push-user-id]').first()).toBeVisible();
});

test('a decision whose code cannot arrive: the queue stays, the notice says why, and the dialog comes once it can', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = page.locator('tr[data-request-id]').first();
  await expect(first).toBeVisible();
  // The server goes away before the decision dialog's code was first asked for.
  // Its file under any query: a retry asks for it under one of its own.
  await page.route(/\/assets\/decision-dialog-[^/]*\.js/, (route) => route.abort('connectionrefused'));
  await page.route('**/api/Consumer/Version', (route) => route.abort('connectionrefused'));

  await first.getByRole('button', { name: /^Approve/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot reach the server: try again' })).toBeVisible();
  await expect(first).toBeVisible();
  await expectNoWhiteScreen(page);

  await page.unrouteAll();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot reach the server' })).toHaveCount(0);
});

test('after an upgrade, a decision whose code is gone says a new version is ready and reloads', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = page.locator('tr[data-request-id]').first();
  await expect(first).toBeVisible();
  // The service now serves a newer build, which has no file by this name.
  await page.route(/\/assets\/decision-dialog-[^/]*\.js/, (route) => route.fulfill({ status: 404, body: 'Not found' }));

  await first.getByRole('button', { name: /^Approve/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'A new version is ready: reload' })).toBeVisible();
  await expect(first).toBeVisible();

  await page.unrouteAll();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page).toHaveURL(/\/authorization-requests$/);
  await expect(page.locator('tr[data-request-id]').first()).toBeVisible();
  await page
    .locator('tr[data-request-id]')
    .first()
    .getByRole('button', { name: /^Approve/ })
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
});
