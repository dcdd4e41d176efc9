import type { AuthorizationRequest, PushMessageUser } from '../src/shared/contract/index.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('Ctrl+K palette jumps to a page, a request by id and a push user by name', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/two-factor');
  const headers = bearer(await pageToken(page));
  const [request] = (await (
    await page.request.get('/api/Consumer/Authentication/AuthorizationRequests?getall=true', { headers })
  ).json()) as AuthorizationRequest[];
  const [user] = (await (
    await page.request.get('/api/Consumer/PushMessageUsers', { headers })
  ).json()) as PushMessageUser[];
  if (!request || !user) throw new Error('demo data missing');

  await expect(page.getByRole('navigation').first()).toBeVisible();
  const search = page.getByPlaceholder(/go to a page/i);
  await page.keyboard.press('Control+k');
  await expect(search).toBeVisible();
  const name = user.UserName.split('\\').pop() ?? user.UserName;
  await search.fill(name);
  await page
    .getByRole('button', { name: new RegExp(`#${user.Id} ·`) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/push-users/${user.Id}$`));
  // The palette closes with a short transition; the next Ctrl+K opens a fresh one.
  await expect(search).toBeHidden();

  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await search.fill('push');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/push-users$/);
  await expect(search).toBeHidden();

  await page.keyboard.press('Control+k');
  await search.fill(String(request.Id));
  await expect(page.getByRole('button', { name: new RegExp(`request #${request.Id}`, 'i') }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/authorization-requests/${request.Id}$`));
  await expect(search).toBeHidden();

  // The palette lists the pages the navigation lists: here the administrator's Accounts and the demo console too.
  await page.keyboard.press('Control+k');
  await search.fill('demo console');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/demo$/);
  await expect(search).toBeHidden();
  await page.keyboard.press('Control+k');
  await search.fill('accounts');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/accounts$/);
});

test('without Security Read the palette neither lists push users nor asks for them', async ({ page }) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  await expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible();
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/PushMessageUsers')) asked.push(request.url());
  });
  await page.keyboard.press('Control+k');
  const search = page.getByPlaceholder(/go to a page/i);
  await expect(search).toBeVisible();
  // A push user's name: listed for readers, not here.
  await search.fill('helpdesk');
  await expect(page.getByText('Nothing found')).toBeVisible();
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);
});

test('the palette keeps the typing when an account’s drawer, still loading, opens under it', async ({ page }) => {
  await signInAs(page, 'Admin');
  // The drawer's code held back until the palette is open: its focus trap then starts under the palette.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/account-drawer-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Manage DEMO\\auditor' }).click();
  await page.keyboard.press('Control+k');
  const search = page.getByPlaceholder(/go to a page/i);
  await expect(search).toBeFocused();
  // Where focus goes from here, as the browser reports it.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { focusSeen: seen });
    document.addEventListener('focusin', (event) => {
      seen.push((event.target as HTMLElement).getAttribute('aria-label') ?? '');
    });
  });
  release();
  await expect(page.getByRole('dialog', { name: 'DEMO\\auditor' })).toBeAttached();
  // The drawer did take focus (its close button)...
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { focusSeen: string[] }).focusSeen.includes('Close')))
    .toBe(true);
  // ...and the palette has it back: what is typed and the Enter are the palette's.
  await expect(search).toBeFocused();
  await page.keyboard.type('create an account');
  await expect(
    page.getByRole('button', { name: 'Create an account' }).and(page.locator('[data-selected]')),
  ).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Create a local account' })).toBeVisible();
});
