import type { Page } from '@playwright/test';
import { type ApiVersion, DEVICE_APP_PATH, type LoginResult } from '../src/shared/contract/index.ts';
import { SESSION_STORAGE_KEY, sessionFromLogin } from '../src/shared/stored-session.ts';
import { expectAccessible } from './support/axe.ts';
import { bearer } from './support/demo.ts';
import { type E2eService, expect, startE2eService, test } from './support/test.ts';

const ROOT = { UserName: 'CORP\\root', Password: 'violet harbour lantern 42' };

/** A new organisation: demo mode off, the first administrator, nothing else. */
let service: E2eService;
test.beforeAll(async () => {
  // The checklist is what this tests; a writer's forced second factor at first sign-in is e2e/passkeys.spec.ts's.
  service = await startE2eService({
    DEMO: 'off',
    SECOND_FACTOR: 'off',
    ADMIN_USERNAME: ROOT.UserName,
    ADMIN_PASSWORD: ROOT.Password,
  });
});
test.afterAll(async () => {
  await service.stop();
});

async function signInAsRoot(page: Page): Promise<string> {
  const response = await page.request.post(`${service.origin}/api/Consumer/Authentication`, { data: ROOT });
  expect(response.ok()).toBe(true);
  const result = (await response.json()) as LoginResult;
  await page.addInitScript(
    ([key, value]) => {
      if (window.sessionStorage.getItem('e2e.signed-in')) return;
      window.sessionStorage.setItem('e2e.signed-in', '1');
      window.sessionStorage.setItem(key, value);
    },
    [SESSION_STORAGE_KEY, JSON.stringify(sessionFromLogin(result, '3.3' as ApiVersion))] as const,
  );
  return result.Token;
}

const step = (page: Page, key: string) => page.getByTestId(`first-run-${key}`);

test('a new organisation sees its first steps on the overview, each ticking itself as it is done', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await signInAsRoot(page);
  await page.goto(`${service.origin}/`);
  const checklist = page.getByRole('region', { name: 'Set up your organisation' });
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText('0 of 4 done');
  for (const key of ['public-url', 'accounts', 'device', 'code']) {
    await expect(step(page, key)).toHaveAttribute('data-done', 'false');
  }
  // This test's service listens on 127.0.0.1 without PUBLIC_URL: the address in links is one no phone can open.
  await expect(step(page, 'public-url')).toContainText('no phone can open');

  for (const [size, name] of [
    [{ width: 1440, height: 900 }, 'desktop'],
    [{ width: 390, height: 844 }, 'phone'],
  ] as const) {
    await page.setViewportSize(size);
    await expectAccessible(page, `first-run-${name}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Add a device from the checklist: the dialog warns that its code carries a loopback address.
  await step(page, 'device').getByRole('button', { name: 'Add a device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a device' });
  await expect(dialog.getByRole('alert')).toContainText('A phone cannot open this address');
  const link = await dialog.getByTestId('enrollment-link').inputValue();
  expect(link).toContain(DEVICE_APP_PATH);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // An account is added: the step ticks itself on the next visit.
  const created = await page.request.post(`${service.origin}/api/Admin/Accounts`, {
    headers: bearer(token),
    data: {
      UserName: 'CORP\\jo',
      Password: 'quiet orchard telescope 7',
      Permissions: { Security: ['Read'], Accounts: [] },
    },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(step(page, 'accounts')).toHaveAttribute('data-done', 'true');
  await expect(page.getByRole('region', { name: 'Set up your organisation' })).toContainText('1 of 4 done');
});
