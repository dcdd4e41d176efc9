import { account, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

const ADMIN = account('Admin');

test('the helpdesk cannot enrol a phone for an account administrator, and is told why', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto(`/people/${encodeURIComponent(ADMIN.userName)}`);
  await page.getByRole('button', { name: 'Enrol a device for them' }).click();
  const dialog = page.getByRole('dialog', { name: `Enrol a device for ${ADMIN.userName}` });
  await expect(dialog.getByText('Only an account administrator may do this')).toBeVisible();
  await expect(
    dialog.getByText(`${ADMIN.userName} holds Accounts permissions: only someone with Write on Accounts`),
  ).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /Or open this link/ })).toHaveCount(0);
});
