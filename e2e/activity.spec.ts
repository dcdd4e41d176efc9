import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { account, apiLogin, bearer, resetDemo, signInAs } from './support/demo.ts';
import { lookAt, lookAtSize } from './support/look.ts';
import { expect, test } from './support/test.ts';

const DESKTOP = { width: 1440, height: 900 } as const;
const PHONE = { width: 390, height: 844 } as const;
/** A demo account with no device yet: the helpdesk sets up their phone with a link. */
const PERSON = account('Auditor');

test.beforeEach(async ({ request }) => resetDemo(request));

/** The helpdesk makes a link for the auditor, and a phone enrols with it (as the phone would, without a password). */
async function phoneEnrolsFromHelpdeskLink(request: APIRequestContext): Promise<number> {
  const { Token } = await apiLogin(request, 'Helpdesk');
  const link = await request.post(`/api/People/${encodeURIComponent(PERSON.userName)}/EnrollmentLinks`, {
    headers: bearer(Token),
  });
  expect(link.status()).toBe(201);
  const { Code } = (await link.json()) as { Code: string };
  const enrolled = await request.post('/api/Device/Enrollments', {
    data: { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', EnrollmentCode: Code },
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 15; Pixel 9) Chrome/131.0 Mobile' },
  });
  expect(enrolled.status()).toBe(201);
  return ((await enrolled.json()) as { AuthorizationRequestId: number }).AuthorizationRequestId;
}

test('the helpdesk approves a phone knowing how it came, and the Activity page finds the decision', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const requestId = await phoneEnrolsFromHelpdeskLink(page.request);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, 'Helpdesk');
  await page.goto('/authorization-requests');

  // The queue's row says it in a few words, the dialog in full.
  const row = page.locator(`tr[data-request-id="${requestId}"]`);
  await expect(row.locator(`[data-request-hints="${requestId}"]`)).toHaveText(/First device.*Your link/);
  await row.getByRole('button', { name: /^Approve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await expect(dialog.getByText(`First device for ${PERSON.userName}`)).toBeVisible();
  await expect(dialog.getByText('The link was issued by you')).toBeVisible();
  await expect(dialog.getByText(/From an enrolment link issued by DEMO\\helpdesk for DEMO\\auditor/)).toBeVisible();
  await expect(dialog.getByText('Their other devices')).toBeVisible();
  await lookAt(page, 'approve-with-context-desktop', { fullPage: false });
  await lookAtSize(page, 'approve-with-context-phone', PHONE);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();

  // The request's own page keeps the context after the decision.
  await page.goto(`/authorization-requests/${requestId}`);
  await expect(page.getByRole('region', { name: 'How it came, and their other devices' })).toContainText(
    'From an enrolment link issued by DEMO\\helpdesk',
  );
  await lookAt(page, 'request-context-desktop');

  // The admin (Read on Accounts too) reads what happened, narrows it, and the address keeps the filters.
  const admin = await browser.newContext({ viewport: DESKTOP });
  try {
    const activity = await admin.newPage();
    await signInAs(activity, 'Admin');
    await activity.goto(`/activity?person=${encodeURIComponent(PERSON.userName)}`);
    const rows = activity.locator('tr[data-activity-id]');
    await expect(rows.first()).toContainText('Device decision (approved)');
    await expect(rows.first()).toContainText('DEMO\\helpdesk');
    await expect(activity.locator('tbody')).toContainText('Device enrolled');
    await expect(activity.locator('tbody')).toContainText('Enrolment link issued for someone');
    await lookAt(activity, 'activity-desktop', { fullPage: false });

    await activity.getByLabel('Event', { exact: true }).selectOption('device-enrolled');
    await expect(activity).toHaveURL(/action=device-enrolled/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Device enrolled');
    // Export CSV is every event of the filter, as the service writes it: here the one enrolment.
    const [download] = await Promise.all([
      activity.waitForEvent('download'),
      activity.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toContain('Id,Time (UTC),Action,Outcome');
    expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(['device-enrolled']);
    // The row links to its request and its person.
    await rows
      .first()
      .getByRole('link', { name: `Request ${requestId}` })
      .click();
    await expect(activity).toHaveURL(new RegExp(`/authorization-requests/${requestId}$`));
    await activity.goBack();
    await expect(activity).toHaveURL(/action=device-enrolled/);

    await activity.getByLabel('Outcome', { exact: true }).selectOption('failure');
    await expect(activity.getByText('No event matches')).toBeVisible();
    await activity.getByRole('button', { name: 'Show every event' }).click();
    await expect(activity).not.toHaveURL(/person=|action=|outcome=/);
    // Details read as words: the sign-ins above are "Signed in", and the link the helpdesk made says for whom.
    await expect(activity.locator('tbody')).toContainText(`Enrolment link issued for someone (for ${PERSON.userName})`);
    await expect(activity.locator('tbody')).toContainText('Signed in');
    await expect(activity.locator('tbody')).not.toContainText('accountKind');

    // A failed sign-in appears without reloading, and free text finds it by the words on screen.
    await activity.request.post('/api/Consumer/Authentication', {
      data: { UserName: PERSON.userName, Password: 'not the password' },
    });
    await activity.getByRole('textbox', { name: 'Search events' }).fill('invalid credentials');
    await expect(activity).toHaveURL(/q=invalid(%20|\+)credentials/);
    await expect(rows.first()).toContainText('Signed in, failed: invalid credentials', { timeout: 15_000 });
    // The person's page shows their own slice, newest first, with the way to the rest.
    await activity.goto(`/people/${encodeURIComponent(PERSON.userName)}`);
    const slice = activity.getByRole('region', { name: 'Activity' });
    await expect(slice).toContainText('Signed in, failed: invalid credentials');
    await expect(slice).toContainText('Device decision (approved)');
    await slice.scrollIntoViewIfNeeded();
    await lookAt(activity, 'person-activity-desktop');
    await activity.setViewportSize(PHONE);
    await activity.goto(`/activity?person=${encodeURIComponent(PERSON.userName)}`);
    await expect(activity.locator('[data-activity-id]').first()).toBeVisible();
    await lookAt(activity, 'activity-phone');
  } finally {
    await admin.close();
  }
});

test('a filter applies as a person types without taking their focus; on a phone the filters open on "Filters"', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, 'Admin');
  await page.goto('/activity');
  const by = page.getByRole('textbox', { name: 'By' });
  await by.click();
  await page.keyboard.type('DEMO');
  // A name is matched whole: the list shows the filter applied, and the person goes on typing.
  await expect(page.getByText('No event matches')).toBeVisible();
  await page.keyboard.type('\\admin');
  await expect(by).toBeFocused();
  await expect(by).toHaveValue('DEMO\\admin');
  await expect(page.locator('[data-activity-id]').first()).toContainText('Signed in');

  // The events come first on a phone, under the search: the other filters open on "Filters", which counts those set.
  await page.setViewportSize(PHONE);
  await page.goto('/activity');
  const first = page.locator('[data-activity-id]').first();
  await expect(first).toContainText('Signed in');
  await expect(first).toBeInViewport();
  await expect(page.getByLabel('Event', { exact: true })).toHaveCount(0);

  const filters = page.getByRole('button', { name: 'Filters', exact: true });
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await filters.click();
  await page.getByLabel('Event', { exact: true }).selectOption('sign-in');
  await expect(page).toHaveURL(/action=sign-in/);
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toContainText('Signed in');
  await expectAccessible(page, 'activity-phone-filters');
});
