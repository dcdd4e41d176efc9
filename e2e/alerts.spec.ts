import { OPERATOR } from '../src/server/test/harness.ts';
import { WebhookReceiver } from '../src/server/test/webhook-receiver.ts';
import { apiLogin, signInAs } from './support/demo.ts';
import { lookAt } from './support/look.ts';
import { type E2eService, expect, startE2eService, test } from './support/test.ts';

let receiver: WebhookReceiver;
let service: E2eService;

// A service of its own that may post to this test's receiver on loopback (ALERT_WEBHOOK_ALLOW_ORIGINS).
test.beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  service = await startE2eService({ ALERT_WEBHOOK_ALLOW_ORIGINS: receiver.origin });
});
test.afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

test('an admin adds a webhook in Settings → Alerts, copies its secret once, and sees an alert delivered, signed', async ({
  page,
}) => {
  const { origin } = service;
  await signInAs(page, 'Admin', { origin });
  await page.goto(`${origin}/settings`);
  const section = page.locator('#alerts');
  await expect(section.getByText('No destinations yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Add destination' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an alert destination' });
  await dialog.getByRole('radio', { name: 'Webhook' }).check({ force: true });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('SIEM');
  await dialog.getByRole('textbox', { name: 'Webhook URL' }).fill(`${receiver.origin}/tachyon`);
  await lookAt(page, 'alerts-add-desktop', { fullPage: false });
  await dialog.getByRole('button', { name: 'Add destination' }).click();

  const shown = page.getByRole('dialog', { name: 'Webhook signing secret' });
  const secret = await shown.getByTestId('webhook-secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  await page.keyboard.press('Escape');
  await expect(shown).toBeVisible();
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  receiver.secret = secret;

  const card = section.getByTestId('alert-destination');
  await expect(card).toContainText('SIEM');
  await expect(card).toContainText(`${receiver.origin}/…`);

  // A permission change (through the API) reaches the receiver, and its log says Delivered.
  const { Token } = await apiLogin(page.request, 'Admin', origin);
  const accounts = (await (
    await page.request.get(`${origin}/api/Admin/Accounts`, { headers: { authorization: `Bearer ${Token}` } })
  ).json()) as Array<{ Id: number; UserName: string }>;
  const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
  const changed = await page.request.put(`${origin}/api/Admin/Accounts/${operator?.Id}/Permissions`, {
    headers: { authorization: `Bearer ${Token}` },
    data: { Permissions: { Security: ['Read'], Accounts: [] } },
  });
  expect(changed.status()).toBe(200);
  const [hook] = await receiver.waitFor(1);
  expect(hook?.signatureValid).toBe(true);

  await card.getByRole('button', { name: 'Delivery log' }).click();
  const log = page.getByRole('dialog', { name: 'Delivery log: SIEM' });
  await expect(log).toContainText(`changed the permissions of ${OPERATOR[0]}`);
  await expect(log.getByText('Delivered')).toBeVisible();
  await lookAt(page, 'alerts-log-desktop', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();

  // Edited: a new name and URL (the URL is never shown whole, so its field starts empty, and empty keeps it).
  await card.getByRole('button', { name: 'Edit SIEM' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit SIEM' });
  await expect(edit.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue('');
  await edit.getByRole('textbox', { name: 'Name' }).fill('SIEM (prod)');
  await edit.getByRole('textbox', { name: 'Webhook URL' }).fill(`${receiver.origin}/moved`);
  await lookAt(page, 'alerts-edit-desktop', { fullPage: false });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(card).toContainText('SIEM (prod)');
  const again = await page.request.put(`${origin}/api/Admin/Accounts/${operator?.Id}/Permissions`, {
    headers: { authorization: `Bearer ${Token}` },
    data: { Permissions: { Security: [], Accounts: [] } },
  });
  expect(again.status()).toBe(200);
  const hooks = await receiver.waitFor(2);
  expect(hooks[1]?.path).toBe('/moved');
  expect(hooks[1]?.signatureValid).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await lookAt(page, 'alerts-phone', { fullPage: false });
  await card.getByRole('button', { name: 'Edit SIEM (prod)' }).click();
  await lookAt(page, 'alerts-edit-phone', { fullPage: false });
  await page.keyboard.press('Escape');
  // On a phone the four channels fit the dialog's width.
  await section.getByRole('button', { name: 'Add destination' }).click();
  const channels = page.getByRole('dialog', { name: 'Add an alert destination' }).getByRole('radio', { name: 'Teams' });
  await expect(channels).toBeInViewport();
  await lookAt(page, 'alerts-add-phone', { fullPage: false });
});
