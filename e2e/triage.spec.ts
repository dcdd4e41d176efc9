import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

const rows = (page: Page) => page.locator('tbody tr[data-request-id]');
const idOf = async (page: Page, index: number) => Number(await rows(page).nth(index).getAttribute('data-request-id'));

test('keyboard triage: j/k move, a approves with Enter, r rejects, o opens, ? shows the keys', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(rows(page).first()).toBeVisible();
  const first = await idOf(page, 0);
  const second = await idOf(page, 1);

  // Shortcuts never fire while typing in a field.
  const search = page.getByRole('textbox', { name: 'Search requests' });
  await search.fill('');
  await search.press('j');
  await expect(search).toHaveValue('j');
  await search.fill('');
  await page.locator('body').click({ position: { x: 5, y: 200 } });

  await page.keyboard.press('j');
  await expect(page.locator(`[data-request-focus="${first}"]`)).toBeFocused();
  await page.keyboard.press('j');
  await expect(page.locator(`[data-request-focus="${second}"]`)).toBeFocused();
  await page.keyboard.press('k');
  await expect(page.locator(`[data-request-focus="${first}"]`)).toBeFocused();

  // a: the dialog opens with the comment focused; Enter confirms.
  await page.keyboard.press('a');
  const approve = page.getByRole('dialog', { name: 'Approve this device?' });
  const comment = approve.getByRole('textbox', { name: /Comment/ });
  await expect(comment).toBeFocused();
  await page.keyboard.type('Checked by keyboard');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Device approved')).toBeVisible();
  await expect(page.locator(`tr[data-request-id="${first}"]`)).toHaveCount(0);
  // Focus lands on the next request, so triage goes on.
  await expect(page.locator(`[data-request-focus="${second}"]`)).toBeFocused();

  // r: reject, Escape backs out without deciding.
  await page.keyboard.press('r');
  const reject = page.getByRole('dialog', { name: 'Reject this request?' });
  await expect(reject.getByRole('textbox', { name: /Comment/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(reject).toBeHidden();
  await expect(page.locator(`tr[data-request-id="${second}"]`)).toHaveCount(1);

  // ?: the shortcuts.
  await page.locator(`[data-request-focus="${second}"]`).focus();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Next request');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // o: open the current request.
  await page.locator(`[data-request-focus="${second}"]`).focus();
  await page.keyboard.press('o');
  await expect(page).toHaveURL(new RegExp(`/authorization-requests/${second}$`));
});

test('export CSV of the filtered view: all columns, UTC and local time, quoted', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests?view=all&q=pixel');
  await expect(rows(page).first()).toBeVisible();
  const shown = await rows(page).count();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Export CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^authorization-requests-.*\.csv$/);
  const text = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe(
    'Id,UserName,UserEmail,RequestGuid,DeviceType,Manufacturer,Model,OsVersion,Status,Created (UTC),Created (local),Modified (UTC),Modified (local),DecidedBy,Decided (UTC),Decided (local),Comment',
  );
  expect(lines).toHaveLength(shown + 1);
  for (const line of lines.slice(1)) expect(line.toLowerCase()).toContain('pixel');
  // Domain user names carry a backslash and dates carry commas in many locales: fields stay intact.
  expect(text).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);

  await page.goto('/push-users?status=active');
  await expect(page.locator('tbody tr[data-push-user-id]').first()).toBeVisible();
  const users = await page.locator('tbody tr[data-push-user-id]').count();
  const [usersCsv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Export CSV/ }).click(),
  ]);
  const userLines = readFileSync((await usersCsv.path()) as string, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(userLines[0]).toBe(
    'Id,UserName,DeviceType,Manufacturer,Model,OsVersion,Status,StatusCode,Registered (UTC),Registered (local),Modified (UTC),Modified (local)',
  );
  expect(userLines).toHaveLength(users + 1);
  for (const line of userLines.slice(1)) expect(line).toContain(',Active,1,');
});
