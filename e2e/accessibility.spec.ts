import type { Page } from '@playwright/test';
import { COLOUR_RULES, expectAccessible, violationsOf } from './support/axe.ts';
import { type Role, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

/** One state of a page that axe judges, in each theme. */
interface Check {
  name: string;
  /** Brings up a dialog or menu (or follows a link) from the page as `ready` left it. */
  open?: (page: Page) => Promise<void>;
}

/** A page loaded once, its checks judged one after another (the page is loaded again after a check that opened something). */
interface Screen {
  role: Role | null;
  path: string;
  apiVersion?: string;
  /** What must be on screen before the page is judged. */
  ready: (page: Page) => Promise<void>;
  checks: Check[];
}

const firstRowLink = (page: Page) => page.locator('tbody tr').first().getByRole('link').first();
const queueReady = (page: Page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible();
const pushUsersReady = (page: Page) => expect(page.locator('tr[data-push-user-id]').first()).toBeVisible();
const twoFactorReady = (page: Page) => expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible();
const accountsReady = (page: Page) =>
  expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin');

const SCREENS: Screen[] = [
  {
    role: null,
    path: '/login',
    ready: (page) => expect(page.getByText('Demo accounts')).toBeVisible(),
    checks: [{ name: 'login' }],
  },
  {
    role: 'Admin',
    path: '/authorization-requests',
    ready: queueReady,
    checks: [
      { name: 'queue' },
      {
        name: 'decision-dialog',
        open: async (page) => {
          await page
            .locator('tbody tr')
            .first()
            .getByRole('button', { name: /^Reject/ })
            .click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
      },
      {
        name: 'bulk-decision-dialog',
        open: async (page) => {
          await page.locator('tbody tr').first().getByRole('checkbox').check();
          await page.getByRole('button', { name: /^Approve \d+$/ }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
      },
      {
        name: 'shortcuts-dialog',
        open: async (page) => {
          await page.keyboard.press('?');
          await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
        },
      },
      {
        name: 'account-menu',
        open: async (page) => {
          await page.getByTestId('user-menu').click();
          await expect(page.getByRole('menu')).toBeVisible();
        },
      },
      {
        name: 'command-palette',
        open: async (page) => {
          await page.keyboard.press('Control+k');
          await expect(page.getByRole('dialog')).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Admin',
    path: '/authorization-requests?view=all',
    ready: (page) => expect(page.locator('tbody').getByText('Authorized').first()).toBeVisible(),
    checks: [
      { name: 'queue-all' },
      {
        name: 'request-detail',
        open: async (page) => {
          await firstRowLink(page).click();
          await expect(page.getByRole('heading', { name: /Request #/ })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Helpdesk',
    path: '/push-users',
    ready: pushUsersReady,
    checks: [
      { name: 'push-users' },
      {
        name: 'delete-confirmation',
        open: async (page) => {
          await page
            .locator('tbody tr')
            .first()
            .getByRole('button', { name: /^Change status/ })
            .click();
          await page.getByRole('menuitem', { name: 'Delete…' }).click();
          await expect(page.getByRole('dialog')).toBeVisible();
        },
      },
      {
        name: 'push-user-detail',
        open: async (page) => {
          await firstRowLink(page).click();
          await expect(page.getByRole('radiogroup', { name: 'Status', exact: true })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Helpdesk',
    path: '/two-factor',
    ready: twoFactorReady,
    checks: [
      {
        name: 'change-password-dialog',
        open: async (page) => {
          await page.getByTestId('user-menu').click();
          await page.getByRole('menuitem', { name: 'Change password' }).click();
          await expect(page.getByRole('dialog', { name: 'Change your password' })).toBeVisible();
        },
      },
      {
        name: 'sign-out-everywhere-dialog',
        open: async (page) => {
          await page.getByTestId('user-menu').click();
          await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
          await expect(page.getByRole('dialog', { name: 'Sign out everywhere?' })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Operator',
    path: '/two-factor',
    ready: twoFactorReady,
    checks: [
      { name: 'two-factor' },
      {
        name: 'add-device-dialog',
        open: async (page) => {
          await page.getByTestId('user-menu').click();
          await page.getByRole('menuitem', { name: 'Add a device' }).click();
          await expect(page.getByRole('img', { name: /QR code of the registration link/ })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Admin',
    path: '/accounts',
    ready: accountsReady,
    checks: [
      { name: 'accounts' },
      {
        name: 'create-account-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Create account' }).click();
          await expect(page.getByRole('dialog', { name: 'Create a local account' })).toBeVisible();
        },
      },
      {
        name: 'account-drawer',
        open: async (page) => {
          await page.getByRole('button', { name: 'Manage DEMO\\helpdesk' }).click();
          await expect(page.getByRole('dialog', { name: 'DEMO\\helpdesk' })).toBeVisible();
        },
      },
      {
        name: 'disable-account-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Manage DEMO\\helpdesk' }).click();
          await page.getByRole('dialog', { name: 'DEMO\\helpdesk' }).getByRole('button', { name: 'Disable' }).click();
          await expect(page.getByRole('dialog', { name: 'Disable DEMO\\helpdesk?' })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Admin',
    path: '/activity',
    ready: (page) => expect(page.locator('tr[data-activity-id]').first()).toBeVisible(),
    checks: [
      { name: 'activity' },
      {
        name: 'activity-filtered',
        open: async (page) => {
          await page.getByLabel('Outcome', { exact: true }).selectOption('failure');
          await expect(page).toHaveURL(/outcome=failure/);
        },
      },
    ],
  },
  {
    role: 'Admin',
    path: '/settings',
    ready: async (page) => {
      await expect(page.getByRole('button', { name: 'Save settings' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add destination' })).toBeVisible();
    },
    checks: [
      { name: 'settings' },
      {
        name: 'add-alert-destination-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Add destination' }).click();
          await expect(page.getByRole('dialog', { name: 'Add an alert destination' })).toBeVisible();
        },
      },
    ],
  },
  {
    role: 'Admin',
    path: '/authorization-requests',
    apiVersion: '4.0',
    ready: (page) => expect(page.getByText('removed in API 4.0').first()).toBeVisible(),
    checks: [{ name: 'removed-in-4-0' }],
  },
  {
    role: 'Operator',
    path: '/push-users',
    ready: (page) => expect(page.getByText('You cannot view push users')).toBeVisible(),
    checks: [{ name: 'no-permission' }],
  },
  {
    role: 'Auditor',
    path: '/authorization-requests',
    ready: queueReady,
    checks: [{ name: 'auditor-queue' }],
  },
  {
    role: 'Admin',
    path: '/',
    ready: (page) => expect(page.getByTestId('requests-chart')).toBeVisible(),
    checks: [{ name: 'overview' }],
  },
  {
    role: 'Admin',
    path: '/demo',
    ready: (page) => expect(page.getByRole('heading', { name: 'Demo console' })).toBeVisible(),
    checks: [
      {
        name: 'demo-console',
        open: async (page) => {
          await page.getByRole('button', { name: 'Create an instruction', exact: true }).click();
          await expect(page.getByTestId('demo-push').first()).toBeVisible();
        },
      },
    ],
  },
];

test.beforeEach(async ({ request }) => resetDemo(request));

// The checks below pass only if the check can fail: a page with a nameless button, and text readable only in light.
test('the check finds a nameless button, and text too faint in the dark theme only', async ({ page }) => {
  await page.setContent(
    '<style>@media (prefers-color-scheme: dark) { p { color: #444; background: #333 } }</style>' +
      '<main><h1>Check</h1><button></button><p>Readable in the light theme</p></main>',
  );
  expect((await violationsOf(page)).map((violation) => violation.id)).toContain('button-name');
  expect(await violationsOf(page, COLOUR_RULES)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect((await violationsOf(page, COLOUR_RULES)).map((violation) => violation.id)).toEqual(['color-contrast']);
});

test.use({ viewport: { width: 1280, height: 800 } });

for (const screen of SCREENS) {
  const names = screen.checks.map((check) => check.name).join(', ');
  test(`${names}: no axe violations in the light and dark themes`, async ({ page }) => {
    // A minute a check (both themes), as the suite gives a test of one page.
    test.setTimeout(60_000 * screen.checks.length);
    if (screen.role) await signInAs(page, screen.role, { apiVersion: screen.apiVersion ?? '3.3' });
    await page.goto(screen.path);
    await screen.ready(page);
    const home = page.url();
    for (const check of screen.checks) {
      await test.step(check.name, async () => {
        await check.open?.(page);
        if (check.name === 'queue' && process.env.UPDATE_DOCS_SCREENSHOT) {
          await page.screenshot({ path: 'docs/screenshot-queue.png' });
        }
        await expectAccessible(page, check.name);
      });
      if (!check.open) continue;
      // What a check opened is closed as a person would (Escape, once per layer); a check that went elsewhere has the
      // page loaded again.
      const overlays = page.locator('[role="dialog"]:visible, [role="menu"]:visible');
      for (let layer = 0; layer < 3 && (await overlays.count()) > 0; layer++) await page.keyboard.press('Escape');
      await expect(overlays).toHaveCount(0);
      if (page.url() !== home) {
        await page.goto(screen.path);
        await screen.ready(page);
      }
    }
  });
}
