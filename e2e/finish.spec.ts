import type { DemoPush } from '../src/shared/contract/index.ts';
import { expectAccessible } from './support/axe.ts';
import { bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('a correct token: authenticated, the field reset without an error, the sent code marked used', async ({
  page,
}) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const id = Number(await page.getByTestId('created-instruction-id').textContent());
  const pushes = (await (
    await page.request.get('/api/Demo/Pushes', { headers: bearer(await pageToken(page)) })
  ).json()) as DemoPush[];
  const push = pushes.find((candidate) => candidate.InstructionId === id);
  if (!push) throw new Error('no code was pushed');
  await expect(page.getByRole('textbox', { name: /Instruction Id/ })).toHaveValue(String(id));
  await page.getByRole('textbox', { name: 'Token' }).fill(push.Token);
  await page.getByRole('button', { name: 'Submit token' }).click();

  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${id}`);
  await expect(page.getByRole('textbox', { name: 'Token' })).toHaveValue('');
  await expect(page.getByText(/Enter all 6 digits/)).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Token' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('code-used')).toContainText(`${id} is authenticated`);
  await expect(page.getByText('is waiting for its code')).toHaveCount(0);
  await expectAccessible(page, 'finish-two-factor-success');
});

test('sign-in: empty fields and a too-long name are said inline in words; a throttle counts down', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Enter the user name')).toBeVisible();
  await expect(page.getByText('Enter the password')).toBeVisible();
  await expect(page.getByLabel('User name')).toHaveAttribute('aria-invalid', 'true');
  // The page says where the service is only under Settings now.
  await expect(page.getByText(/API 3\.3/)).toHaveCount(0);
  await expectAccessible(page, 'finish-sign-in-errors');

  await page.getByLabel('User name').fill(`DEMO\\${'x'.repeat(300)}`);
  await page.getByRole('textbox', { name: 'Password' }).fill('whatever');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('User name can be at most 256 characters')).toBeVisible();
  await expect(page.getByText(/Too big|expected string|UserName/)).toHaveCount(0);

  await page.route('**/api/Consumer/Authentication', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '3' },
      body: JSON.stringify({
        type: 'https://tachyon-consumer.dev/problems/too-many-requests',
        title: 'Too many sign-in attempts',
        status: 429,
        detail: 'Wait, then try again.',
      }),
    }),
  );
  await page.getByLabel('User name').fill('DEMO\\admin');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const button = page.getByRole('button', { name: /^Sign in(?! with)/ });
  await expect(button).toBeDisabled();
  await expect(button).toHaveText(/wait 0:0[1-3]/);
  await expect(page.getByRole('alert')).toContainText('You can try again in 0:0');
  await expect(button).toBeEnabled({ timeout: 6_000 });
  await expect(button).toHaveText('Sign in');
});

test('create account: errors say the field by its label, next to it', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Create account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a local account' });
  await dialog.getByLabel('User name').fill('jo');
  await dialog.getByLabel('Initial password').fill('violet harbour lantern 42');
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/Admin/Accounts')) posts.push(request.url());
  });
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog.getByText('User name must look like DOMAIN\\user')).toBeVisible();
  await expect(dialog.getByLabel('User name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(/UserName/)).toHaveCount(0);
  // Said before the service was asked.
  expect(posts).toEqual([]);
  await expectAccessible(page, 'finish-create-account-error');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Accounts are cards, nothing clipped, each with its permissions in a line, their toggles and Manage', async ({
    page,
  }) => {
    await signInAs(page, 'Admin');
    await page.goto('/accounts');
    const card = page.getByRole('listitem').filter({ hasText: 'DEMO\\helpdesk' });
    await expect(card).toBeVisible();
    // The permissions read as a line; their toggles open on request.
    await expect(card.getByText('Security Read, Security Write, Accounts Contain')).toBeVisible();
    await card.getByRole('button', { name: 'Change permissions' }).click();
    await expect(card.getByRole('checkbox', { name: 'Security Write for DEMO\\helpdesk' })).toBeChecked();
    const manage = card.getByRole('button', { name: 'Manage DEMO\\helpdesk' });
    await manage.scrollIntoViewIfNeeded();
    await expect(manage).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page.getByRole('table', { name: 'Accounts' })).toHaveCount(0);
    await expectAccessible(page, 'finish-accounts-phone');
  });
});

test('the palette finds accounts and requests by name and acts: create an account, switch theme, sign out', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/two-factor');
  await expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible();
  const search = page.getByPlaceholder(/go to a page/i);
  await page.keyboard.press('Control+k');
  await search.fill('auditor');
  // The person's page comes first; the account is under Accounts.
  await expect(page.getByRole('button').filter({ hasText: 'DEMO\\auditor' }).first()).toContainText('Their page');
  await page.getByRole('button', { name: /^DEMO\\auditor Local account/ }).click();
  await expect(page).toHaveURL(/\/accounts\?account=\d+$/);
  await expect(search).toBeHidden();
  // The account opens in its drawer, which takes the focus once it has slid in (palette.spec shows a palette opened
  // before that keeps it).
  const drawer = page.getByRole('dialog', { name: 'DEMO\\auditor' });
  await expect(drawer.getByRole('button', { name: 'Close' })).toBeFocused();

  await page.keyboard.press('Control+k');
  await search.fill('gus');
  await expect(page.getByRole('button', { name: /Request #\d+ · ACME\\gus/ }).first()).toBeVisible();

  // Enter acts on the highlighted action: wait for the highlight as a person would see it.
  const highlighted = (name: string) => page.getByRole('button', { name }).and(page.locator('[data-selected]'));
  await search.fill('create an account');
  await expect(highlighted('Create an account')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Create a local account' })).toBeVisible();
  await expect(search).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/accounts(\?account=\d+)?$/);

  await page.keyboard.press('Control+k');
  await search.fill('theme');
  await expect(highlighted('Switch to dark theme')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  // The palette closes with a short transition; the next Ctrl+K opens a fresh one.
  await expect(search).toBeHidden();

  await page.keyboard.press('Control+k');
  await search.fill('sign out');
  await expect(highlighted('Sign out')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login/);
});

test('Settings keeps the server and consumer name under Advanced', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/settings');
  const advanced = page.getByTestId('settings-advanced');
  await expect(page.getByLabel('Server base URL')).toBeHidden();
  await expect(advanced).toContainText('/api · API 3.3');
  await advanced.getByText('Advanced: server and consumer name').click();
  await expect(page.getByLabel('Server base URL')).toHaveValue('/api');
  await expect(page.getByLabel('Consumer name')).toBeVisible();
  await expectAccessible(page, 'finish-settings-advanced');
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('Accounts keeps user names whole; a missing push user or account is said', async ({ page }) => {
    await signInAs(page, 'Admin');
    await page.goto('/accounts');
    const name = page.getByText('DEMO\\accounts.admin', { exact: true });
    await expect(name).toBeVisible();
    // Broken only after the backslash if at all: "accounts.admin" stays on one line.
    const lines = await name.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBeLessThanOrEqual(2);
    const width = await name.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(width).toBeLessThanOrEqual(0);

    await page.goto('/push-users/424242');
    await expect(page.getByRole('heading', { name: 'No such push user' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to push users' }).click();
    await expect(page).toHaveURL(/\/push-users$/);

    await page.goto('/accounts?account=99999');
    await expect(page.getByTestId('unknown-account')).toContainText('No account #99999');
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('Push users stays a table, each time on one line: cut where short of room, never wrapped', async ({ page }) => {
    await signInAs(page, 'Admin');
    await page.goto('/push-users');
    const times = page.getByRole('table', { name: 'Push message users' }).locator('tbody td > div > span');
    await expect(times.first()).toBeVisible();
    const lines = await times.evaluateAll((all) =>
      all.slice(0, 10).map((time) => {
        const height = time.getBoundingClientRect().height;
        return Math.round(height / Number.parseFloat(getComputedStyle(time).lineHeight));
      }),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
  });

  test('Accounts fits a laptop: no sideways scrolling, each Manage whole, headers unbroken; cards on a tablet', async ({
    page,
  }) => {
    await signInAs(page, 'Admin');
    await page.goto('/accounts');
    const table = page.getByRole('table', { name: 'Accounts' });
    const manage = table.getByRole('button', { name: /^Manage / });
    await expect(manage.first()).toBeVisible();
    // The table's frame scrolls sideways only when the table is wider than the page gives it.
    expect(
      await table.evaluate((element) => element.scrollWidth - (element.parentElement?.clientWidth ?? 0)),
    ).toBeLessThanOrEqual(0);
    const cut = await manage.evaluateAll((buttons) =>
      buttons
        .filter((button) => {
          const frame = button.closest('table')?.parentElement?.getBoundingClientRect();
          const edges = button.getBoundingClientRect();
          return !frame || edges.left < frame.left || edges.right > Math.min(frame.right, window.innerWidth);
        })
        .map((button) => button.getAttribute('aria-label')),
    );
    expect(cut).toEqual([]);
    // Permissions are named by their entity once, above them, and in full to a screen reader.
    await expect(table.getByRole('columnheader', { name: 'Security', exact: true })).toHaveAttribute('colspan', '2');
    await expect(table.getByRole('columnheader', { name: 'Accounts Contain' })).toHaveText('Contain');
    const header = table.getByRole('columnheader', { name: 'Last sign-in' });
    const height = await header.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(height).toBe(1);
    await expectAccessible(page, 'finish-accounts-laptop');

    // A tablet held sideways has too little room for the table once the navigation takes its share: cards, as on a
    // phone, rather than a table that hides its Manage buttons off to the side.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(table).toHaveCount(0);
    const card = page.getByRole('listitem').filter({ hasText: 'DEMO\\helpdesk' });
    await expect(card.getByRole('button', { name: 'Manage DEMO\\helpdesk' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  });
});

test('the first Tab of a page is a skip link to its content', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/authorization-requests');
  await expect(page.getByRole('heading', { name: 'Authorization requests', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  await expect(page).toHaveURL(/\/authorization-requests/);
});
