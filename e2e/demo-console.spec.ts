import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('the DEMO badge and the console are there in demo mode', async ({ page }) => {
  await signInAs(page, 'Auditor');
  await page.goto('/push-users');
  await expect(page.getByTestId('demo-badge')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demo console' }).click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByRole('heading', { name: 'Demo console' })).toBeVisible();
});

test('without demo mode there is no badge, no console link, and the page says why', async ({ page }) => {
  await page.route('**/api/Consumer/Version', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), Demo: false } });
  });
  await signInAs(page, 'Admin');
  await page.goto('/demo');
  await expect(page.getByText('Demo mode is off')).toBeVisible();
  await expect(page.getByTestId('demo-badge')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demo console' })).toHaveCount(
    0,
  );
});

test('a device asks to be authorized; the admin opens and approves it', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/demo');
  const form = page.getByRole('form', { name: 'A device asks to be authorized' });
  await form.getByRole('textbox', { name: 'User name' }).fill('DEMO\\jane');
  await form.getByRole('textbox', { name: 'Model' }).fill('Pixel 9');
  await form.getByRole('button', { name: 'Send the request' }).click();
  const created = form.getByRole('status');
  await expect(created).toContainText('The device asked to be authorized');
  await expect(created).toContainText('Pixel 9');
  await created.getByRole('link', { name: /open request #\d+/ }).click();

  await expect(page).toHaveURL(/\/authorization-requests\/\d+$/);
  await expect(page.getByRole('heading', { name: /Request #\d+/ })).toContainText('Pending');
  await expect(page.getByText('DEMO\\jane asks to use a')).toBeVisible();
  await page.getByRole('button', { name: /^Approve/ }).click();
  await page.getByRole('dialog', { name: 'Approve this device?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device approved')).toBeVisible();
});

test('an instruction: the token arrives in the inbox, the link opens two-factor, the token authenticates', async ({
  page,
}) => {
  await signInAs(page, 'Operator');
  await page.goto('/demo');
  const inbox = page.getByRole('region', { name: 'Your device inbox' });
  await expect(inbox).toContainText('Nothing yet');

  await page.getByRole('button', { name: 'Create an instruction', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Instruction #\d+ created/ })).toBeVisible();
  const push = inbox.getByTestId('demo-push').first();
  await expect(push).toBeVisible({ timeout: 10_000 });
  const token = (await push.getByTestId('demo-token').textContent()) ?? '';
  expect(token).toMatch(/^\d{6}$/);
  const id = Number(/#(\d+)/.exec((await push.getAttribute('aria-label')) ?? '')?.[1]);

  await push.getByRole('link', { name: 'Enter this token' }).click();
  await expect(page).toHaveURL(new RegExp(`/two-factor\\?kind=instruction&id=${id}$`));
  await expect(page.getByRole('textbox', { name: /Instruction Id/ })).toHaveValue(String(id));
  await expect(page.getByRole('textbox', { name: 'Token' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Token' }).fill(token);
  await page.getByRole('button', { name: 'Submit token' }).click();
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${id}`);
});

test('a scheduled instruction locked by wrong tokens gets a new token from the inbox', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/demo');
  await page.getByRole('button', { name: 'Create a scheduled instruction' }).click();
  const inbox = page.getByRole('region', { name: 'Your device inbox' });
  const first = inbox.getByTestId('demo-push').first();
  await expect(first).toContainText('Scheduled instruction');
  const oldToken = (await first.getByTestId('demo-token').textContent()) ?? '';

  await first.getByRole('link', { name: 'Enter this token' }).click();
  await expect(page).toHaveURL(/kind=scheduled/);
  await expect(page.getByRole('radio', { name: 'A scheduled instruction' })).toBeChecked();
  const wrong = oldToken === '000000' ? '111111' : '000000';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.getByRole('textbox', { name: 'Token' }).fill(wrong);
    await page.getByRole('button', { name: 'Submit token' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
  }
  await expect(page.getByRole('alert')).toContainText(/lock/i);

  await page.goto('/demo');
  await expect(inbox.getByTestId('demo-push')).toHaveCount(1);
  await inbox.getByTestId('demo-push').first().getByRole('button', { name: 'Issue a new token' }).click();
  await expect(page.getByText('New token sent')).toBeVisible();
  await expect(inbox.getByTestId('demo-push')).toHaveCount(2);
  const fresh = inbox.getByTestId('demo-push').first();
  const newToken = (await fresh.getByTestId('demo-token').textContent()) ?? '';
  await fresh.getByRole('link', { name: 'Enter this token' }).click();
  await page.getByRole('textbox', { name: 'Token' }).fill(newToken);
  await page.getByRole('button', { name: 'Submit token' }).click();
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText('Scheduled instruction');
});

test('reset asks first, then restores the demo data', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/demo');
  await page.getByRole('button', { name: 'Create an instruction', exact: true }).click();
  const inbox = page.getByRole('region', { name: 'Your device inbox' });
  await expect(inbox.getByTestId('demo-push')).toHaveCount(1);

  await page.getByRole('button', { name: 'Reset demo data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset the demo data?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(inbox.getByTestId('demo-push')).toHaveCount(1);

  await page.getByRole('button', { name: 'Reset demo data' }).click();
  await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(page.getByText('Demo data reset')).toBeVisible();
  await expect(inbox).toContainText('Nothing yet');
});
