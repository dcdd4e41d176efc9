import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type Role, resetDemo, signInAs } from './support/demo.ts';

interface Screen {
  name: string;
  role: Role | null;
  path: string;
  apiVersion?: string;
  /** What must be on screen before the page is judged. */
  ready: (page: Page) => Promise<void>;
  /** Brings up a dialog or menu to judge too. */
  open?: (page: Page) => Promise<void>;
}

const firstRowLink = (page: Page) => page.locator('tbody tr').first().getByRole('link').first();

const SCREENS: Screen[] = [
  {
    name: 'login',
    role: null,
    path: '/login',
    ready: (page) => expect(page.getByText('Demo accounts')).toBeVisible(),
  },
  {
    name: 'queue',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
  },
  {
    name: 'queue-all',
    role: 'Admin',
    path: '/authorization-requests?view=all',
    ready: (page) => expect(page.locator('tbody').getByText('Authorized').first()).toBeVisible(),
  },
  {
    name: 'decision-dialog',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
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
    name: 'request-detail',
    role: 'Admin',
    path: '/authorization-requests?view=all',
    ready: async (page) => {
      await firstRowLink(page).click();
      await expect(page.getByRole('heading', { name: /Request #/ })).toBeVisible();
    },
  },
  {
    name: 'push-users',
    role: 'Helpdesk',
    path: '/push-users',
    ready: (page) => expect(page.locator('tr[data-push-user-id]').first()).toBeVisible(),
  },
  {
    name: 'push-user-detail',
    role: 'Helpdesk',
    path: '/push-users',
    ready: async (page) => {
      await firstRowLink(page).click();
      await expect(page.getByRole('radiogroup', { name: 'Status', exact: true })).toBeVisible();
    },
  },
  {
    name: 'delete-confirmation',
    role: 'Helpdesk',
    path: '/push-users',
    ready: (page) => expect(page.locator('tr[data-push-user-id]').first()).toBeVisible(),
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
    name: 'bulk-decision-dialog',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
    open: async (page) => {
      await page.locator('tbody tr').first().getByRole('checkbox').check();
      await page.getByRole('button', { name: /^Approve \d+$/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'shortcuts-dialog',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
    open: async (page) => {
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
  {
    name: 'account-menu',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    name: 'change-password-dialog',
    role: 'Helpdesk',
    path: '/two-factor',
    ready: (page) => expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible(),
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Change password' }).click();
      await expect(page.getByRole('dialog', { name: 'Change your password' })).toBeVisible();
    },
  },
  {
    name: 'add-device-dialog',
    role: 'Operator',
    path: '/two-factor',
    ready: (page) => expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible(),
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Add a device' }).click();
      await expect(page.getByRole('img', { name: /QR code of the registration link/ })).toBeVisible();
    },
  },
  {
    name: 'accounts',
    role: 'Admin',
    path: '/accounts',
    ready: (page) => expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin'),
  },
  {
    name: 'create-account-dialog',
    role: 'Admin',
    path: '/accounts',
    ready: (page) => expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByRole('dialog', { name: 'Create a local account' })).toBeVisible();
    },
  },
  {
    name: 'account-drawer',
    role: 'Admin',
    path: '/accounts',
    ready: (page) => expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Manage DEMO\\helpdesk' }).click();
      await expect(page.getByRole('dialog', { name: 'DEMO\\helpdesk' })).toBeVisible();
    },
  },
  {
    name: 'sign-out-everywhere-dialog',
    role: 'Helpdesk',
    path: '/two-factor',
    ready: (page) => expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible(),
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
      await expect(page.getByRole('dialog', { name: 'Sign out everywhere?' })).toBeVisible();
    },
  },
  {
    name: 'disable-account-dialog',
    role: 'Admin',
    path: '/accounts',
    ready: (page) => expect(page.getByRole('table', { name: 'Accounts' })).toContainText('DEMO\\admin'),
    open: async (page) => {
      await page.getByRole('button', { name: 'Manage DEMO\\helpdesk' }).click();
      await page.getByRole('dialog', { name: 'DEMO\\helpdesk' }).getByRole('button', { name: 'Disable' }).click();
      await expect(page.getByRole('dialog', { name: 'Disable DEMO\\helpdesk?' })).toBeVisible();
    },
  },
  {
    name: 'command-palette',
    role: 'Admin',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
    open: async (page) => {
      await page.keyboard.press('Control+k');
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'two-factor',
    role: 'Operator',
    path: '/two-factor',
    ready: (page) => expect(page.getByRole('button', { name: 'Submit token' })).toBeVisible(),
  },
  {
    name: 'settings',
    role: 'Admin',
    path: '/settings',
    ready: (page) => expect(page.getByRole('button', { name: 'Save settings' })).toBeVisible(),
  },
  {
    name: 'removed-in-4-0',
    role: 'Admin',
    path: '/authorization-requests',
    apiVersion: '4.0',
    ready: (page) => expect(page.getByText('removed in API 4.0').first()).toBeVisible(),
  },
  {
    name: 'no-permission',
    role: 'Operator',
    path: '/push-users',
    ready: (page) => expect(page.getByText('You cannot view push users')).toBeVisible(),
  },
  {
    name: 'auditor-queue',
    role: 'Auditor',
    path: '/authorization-requests',
    ready: (page) => expect(page.locator('tr[data-request-id]').first()).toBeVisible(),
  },
  {
    name: 'overview',
    role: 'Admin',
    path: '/',
    ready: (page) => expect(page.locator('.recharts-bar-rectangle').first()).toBeAttached(),
  },
  {
    name: 'demo-console',
    role: 'Admin',
    path: '/demo',
    ready: (page) => expect(page.getByRole('heading', { name: 'Demo console' })).toBeVisible(),
    open: async (page) => {
      await page.getByRole('button', { name: 'Create an instruction', exact: true }).click();
      await expect(page.getByTestId('demo-push').first()).toBeVisible();
    },
  },
];

const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });

test.beforeEach(async ({ request }) => resetDemo(request));

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme, viewport: { width: 1280, height: 800 } });

    for (const screen of SCREENS) {
      test(`${screen.name}: no axe violations`, async ({ page }) => {
        if (screen.role) await signInAs(page, screen.role, { apiVersion: screen.apiVersion ?? '3.3' });
        await page.goto(screen.path);
        await screen.ready(page);
        await screen.open?.(page);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        // Let transitions settle so colours are measured as people see them.
        await page.waitForTimeout(400);
        await page.screenshot({ path: `${SHOTS}/${screen.name}-${scheme}.png` });
        if (screen.name === 'queue' && scheme === 'light' && process.env.UPDATE_DOCS_SCREENSHOT) {
          await page.screenshot({ path: 'docs/screenshot-queue.png' });
        }

        // Every rule axe-core runs by default (WCAG 2.0/2.1/2.2 A and AA, target size, best practice): no tag subset,
        // and no violation of any impact is tolerated.
        const results = await new AxeBuilder({ page }).analyze();
        const blocking = results.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} :: ${node.failureSummary}`),
        }));
        expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
      });
    }
  });
}
