import { expectAccessible } from './support/axe.ts';
import { account, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

const DESKTOP = { name: 'desktop', width: 1440, height: 900 } as const;
const PHONE = { name: 'phone', width: 390, height: 844 } as const;
/** The person the helpdesk looks up: a demo account with no device yet. */
const PERSON = account('Auditor');

test.beforeEach(async ({ request }) => resetDemo(request));

for (const viewport of [DESKTOP, PHONE]) {
  test(`the helpdesk finds a person and everything of theirs on one page (${viewport.name})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await signInAs(page, 'Helpdesk');
    await page.goto('/people');
    await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
    await expect(page.locator('[data-person]').first()).toBeVisible();
    await expectAccessible(page, `people-${viewport.name}`);

    // The search is in the address, to share; the list narrows as it is typed.
    await page.getByRole('textbox', { name: 'Search people' }).fill('auditor');
    await expect(page).toHaveURL(/[?&]q=auditor/);
    await expect(page.locator('[data-person]')).toHaveCount(1);
    await page.getByRole('link', { name: PERSON.userName }).click();
    await expect(page).toHaveURL(/\/people\/DEMO%5Cauditor$/);
    await expect(page.getByRole('heading', { level: 1, name: PERSON.userName })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Devices' })).toContainText('No device registered');
    // The helpdesk has no Read on Accounts: the account is there, its details withheld, and it says so.
    await expect(page.getByRole('region', { name: 'Account' })).toContainText('Read on Accounts shows it');
    await expectAccessible(page, `person-${viewport.name}`);

    await page.getByRole('button', { name: 'Enrol a device for them' }).click();
    const dialog = page.getByRole('dialog', { name: `Enrol a device for ${PERSON.userName}` });
    await expect(dialog.getByRole('img', { name: /QR code of the registration link/ })).toBeVisible();
    await expectAccessible(page, `person-enrol-${viewport.name}`);

    // What follows reads the same at any width: the phone has been judged above.
    if (viewport === PHONE) return;

    // A deep link opens the same page, whatever the case of the name.
    await page.goto('/people/demo%5CADMIN');
    await expect(page.getByRole('heading', { level: 1, name: 'DEMO\\admin' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Devices' }).locator('[data-device-id]').first()).toBeVisible();

    // A name nobody has is said in words, with the search for it one click away; the service is asked once.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/People/DEMO%5Caudtior') asked.push(request.url());
    });
    await page.goto('/people/DEMO%5Caudtior');
    await expect(page.getByRole('heading', { name: 'Nobody by that name' })).toBeVisible();
    expect(asked).toHaveLength(1);
    await page.getByRole('link', { name: 'Search People for “audtior”' }).click();
    await expect(page).toHaveURL(/\/people\?q=audtior$/);
    await expect(page.getByText('Nobody matches')).toBeVisible();
  });
}

test('the helpdesk enrols a phone for someone at their desk and approves it from their page', async ({ browser }) => {
  test.setTimeout(180_000);
  const desk = await browser.newContext({ viewport: DESKTOP });
  const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    const page = await desk.newPage();
    await signInAs(page, 'Helpdesk');
    await page.goto(`/people/${encodeURIComponent(PERSON.userName)}`);
    await page.getByRole('button', { name: 'Enrol a device for them' }).click();
    const dialog = page.getByRole('dialog', { name: `Enrol a device for ${PERSON.userName}` });
    const link = await dialog.getByRole('textbox', { name: /Or open this link/ }).inputValue();
    expect(link).toMatch(/\/device#enrol=/);

    // Their phone opens the link: it registers as theirs, not the helpdesk's, without a password.
    const mobile = await phone.newPage();
    await mobile.goto(link);
    await expect(mobile.getByRole('heading', { name: 'Register this device' })).toBeVisible();
    await mobile.getByRole('textbox', { name: 'Model' }).fill('Desk phone');
    await mobile.getByRole('button', { name: 'Register' }).click();
    await expect(mobile.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
    await expect(mobile.getByText(PERSON.userName)).toBeVisible();

    // The enrol dialog turns into the registered phone with Approve at hand; the queue's dialog approves it.
    const registered = dialog.getByTestId('enrolled-request');
    await expect(registered).toContainText(`${PERSON.userName}'s Desk phone registered`, { timeout: 20_000 });
    await registered.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog', { name: 'Approve this device?' }).getByRole('button', { name: 'Approve' }).click();
    await expect(dialog).toBeHidden();
    const requests = page.getByRole('region', { name: 'Authorization requests' });
    const pending = requests.locator('[data-request-id]').filter({ hasText: 'Desk phone' });
    await expect(pending).toContainText('Authorized');
    const device = page
      .getByRole('region', { name: 'Devices' })
      .locator('[data-device-id]')
      .filter({ hasText: 'Desk phone' });
    await expect(device).toContainText('Active');
    await expectAccessible(page, 'person-enrolled-desktop');
    await expect(mobile.getByRole('heading', { name: 'Approved' })).toBeVisible();

    // The request and the device it registered link to each other.
    await pending.getByRole('link', { name: /^push user #\d+$/ }).click();
    await expect(page).toHaveURL(/\/push-users\/\d+$/);
    await page.getByRole('link', { name: /^Request #\d+$/ }).click();
    await expect(page).toHaveURL(/\/authorization-requests\/\d+$/);
    await page.getByRole('link', { name: PERSON.userName }).click();
    await expect(page).toHaveURL(/\/people\/DEMO%5Cauditor$/);

    // Disabling the device asks first, then stops it.
    await device.getByRole('button', { name: /^Disable/ }).click();
    await page
      .getByRole('dialog', { name: /Disable/ })
      .getByRole('button', { name: 'Disable device' })
      .click();
    await expect(device).toContainText('Disabled');
  } finally {
    await Promise.all([desk.close(), phone.close()]);
  }
});
