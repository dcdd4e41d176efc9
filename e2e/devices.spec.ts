import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { AuthorizationRequest, DeviceEnrollmentResult, WebPushPayload } from '../src/shared/contract/index.ts';
import { DEVICE_POLL_MS } from '../src/web/device-app/connection/device-queries.ts';
import { expectAccessible } from './support/axe.ts';
import { account, apiLogin, bearer, pageToken, type Role, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

// The device app on a phone held upright, beside the dashboard on a desk.
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;
const DESK = { viewport: { width: 1280, height: 800 } } as const;
/** The person whose phone enrols: the demo account with no device yet. */
const PERSON = account('Auditor');

test.beforeEach(async ({ request }) => resetDemo(request));

// Each test opens a phone and a desk or two at once: their contexts close with it.
const opened: BrowserContext[] = [];
/** What the phones' live streams answered, printed with a failure: whether a phone was live is half its story. */
const streamLog: string[] = [];
test.afterEach(async () => {
  const testInfo = test.info();
  await Promise.all(opened.splice(0).map((context) => context.close()));
  const log = streamLog.splice(0);
  if (testInfo.status !== testInfo.expectedStatus)
    console.log(`The phones' live streams:\n${log.join('\n') || 'none'}`);
});

/** Every state of the device app is judged as it first shows (in the phone's light theme). */
const expectDeviceAppAccessible = (page: Page, state: string) =>
  expectAccessible(page, `device-app-${state}`, { themes: ['light'] });

async function phone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(PHONE);
  opened.push(context);
  const phoneNumber = opened.length;
  const started = Date.now();
  const note = (what: string) => streamLog.push(`context ${phoneNumber}, +${Date.now() - started} ms: ${what}`);
  const isStream = (url: string) => url.endsWith('/api/Device/Events');
  context.on('request', (request) => isStream(request.url()) && note('asked'));
  context.on('response', (response) => isStream(response.url()) && note(`answered ${response.status()}`));
  context.on('requestfailed', (request) => isStream(request.url()) && note(`ended: ${request.failure()?.errorText}`));
  context.on('requestfinished', (request) => isStream(request.url()) && note('ended by the service'));
  return { context, page: await context.newPage() };
}

async function desk(browser: Browser, role: Role): Promise<Page> {
  const context = await browser.newContext(DESK);
  opened.push(context);
  const page = await context.newPage();
  await signInAs(page, role);
  return page;
}

/** A device enrolled and approved through the API, its credential handed to the phone as enrolment leaves it. */
async function enrolledPhone(browser: Browser, approve: boolean) {
  const { context, page } = await phone(browser);
  const person = await apiLogin(page.request, PERSON.role);
  const enrolled = await page.request.post('/api/Device/Enrollments', {
    headers: bearer(person.Token),
    data: { DeviceType: 'Android', Manufacturer: 'Google', Model: 'Pixel 9', OsVersion: '15' },
  });
  expect(enrolled.status()).toBe(201);
  const result = (await enrolled.json()) as DeviceEnrollmentResult;
  if (approve) await decide(page, result.AuthorizationRequestId, true);
  await context.addInitScript(
    (credential) => window.localStorage.setItem('tachyon.device', credential),
    JSON.stringify({ token: result.DeviceToken, authorizationRequestId: result.AuthorizationRequestId }),
  );
  return { context, page, result, personToken: person.Token };
}

async function decide(page: Page, id: number, authorized: boolean) {
  const admin = await apiLogin(page.request, 'Admin');
  const request = (await (
    await page.request.get(`/api/Consumer/Authentication/AuthorizationRequests/${id}`, { headers: bearer(admin.Token) })
  ).json()) as AuthorizationRequest;
  const decided = await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
    headers: bearer(admin.Token),
    data: { RequestId: id, RequestGuid: request.RequestGuid, Authorized: authorized, Comment: 'Checked by e2e' },
  });
  expect(decided.ok()).toBe(true);
}

test('a phone enrols, is approved live, shows the code the desk asked for, and the code is accepted', async ({
  browser,
}) => {
  const { page: mobile } = await phone(browser);
  await mobile.goto('/device');
  await expect(mobile.getByRole('heading', { name: 'Register this phone' })).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'sign in');
  await mobile.getByRole('textbox', { name: 'User name' }).fill(PERSON.userName);
  await mobile.getByRole('textbox', { name: 'Password' }).fill(PERSON.password);
  await mobile.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(mobile.getByRole('heading', { name: 'Register this device' })).toBeVisible();
  // Filled in from the browser, and editable.
  await expect(mobile.getByRole('textbox', { name: 'Device type' })).not.toHaveValue('');
  await expectDeviceAppAccessible(mobile, 'register');
  await mobile.getByRole('textbox', { name: 'Model' }).fill('Pixel 9 (e2e)');
  await mobile.getByRole('button', { name: 'Register' }).click();
  await expect(mobile.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'waiting for approval');
  // The password session was ended: only the device credential stays, in localStorage.
  expect(await mobile.evaluate(() => window.localStorage.getItem('tachyon.device'))).toContain('token');

  // An administrator approves it in the queue.
  const admin = await desk(browser, 'Admin');
  await admin.goto('/authorization-requests');
  const row = admin.locator('tr[data-request-id]').filter({ hasText: 'Pixel 9 (e2e)' });
  await row.getByRole('button', { name: /^Approve/ }).click();
  await admin.getByRole('dialog', { name: 'Approve this device?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(admin.getByText('Device approved')).toBeVisible();

  // The phone shows it without a reload.
  await expect(mobile.getByRole('heading', { name: 'Approved' })).toBeVisible();
  await expect(mobile.getByTestId('live-region')).toContainText('Approved');

  // The person asks for a code at their desk; it shows on the phone.
  const person = await desk(browser, PERSON.role);
  await person.goto('/two-factor');
  await person.getByRole('button', { name: 'Send me a code' }).click();
  const sent = person.getByRole('status').filter({ hasText: 'Code sent' });
  await expect(sent).toContainText('sent to 1 device');
  const instructionId = (await sent.getByTestId('created-instruction-id').textContent()) ?? '';
  await expect(person.getByRole('textbox', { name: /Instruction Id/ })).toHaveValue(instructionId);

  const card = mobile.getByTestId('device-code-card').filter({ hasText: `Instruction ${instructionId}` });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Dashboard test');
  const code = (await card.getByTestId('device-code').getAttribute('data-code')) ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await expectDeviceAppAccessible(mobile, 'approved, with a code');

  // The person types it on the desk: accepted.
  await person.getByRole('textbox', { name: 'Token' }).fill(code);
  await person.getByRole('button', { name: 'Submit token' }).click();
  await expect(person.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${instructionId}`);
  // A used code leaves the phone.
  await expect(card).toHaveCount(0);

  // A code the person did not ask for: "This wasn't me" ends it and every session of theirs.
  await person.getByRole('button', { name: 'Send me a code' }).click();
  const unwanted = mobile.getByTestId('device-code-card');
  // Live above; here what matters is the report, so a phone whose stream is reconnecting may show it at its next poll.
  await expect(unwanted).toHaveCount(1, { timeout: DEVICE_POLL_MS + 5_000 });
  await unwanted.getByRole('button', { name: /This wasn’t me/ }).click();
  const report = mobile.getByRole('dialog', { name: 'Report a code you did not ask for?' });
  await expect(report).toContainText('every session of your account ends');
  await expectDeviceAppAccessible(mobile, 'report a code');
  const personToken = await pageToken(person);
  await report.getByRole('button', { name: 'Report it' }).click();
  await expect(mobile.getByText('Reported', { exact: true })).toBeVisible();
  await expect(unwanted).toHaveCount(0);
  expect(
    (await person.request.get('/api/Consumer/Authentication/Session', { headers: bearer(personToken) })).status(),
  ).toBe(401);
});

test('a second phone enrols from the QR code link without a password; a rejection shows live', async ({ browser }) => {
  const person = await desk(browser, PERSON.role);
  await person.goto('/two-factor');
  await person.getByTestId('user-menu').click();
  await person.getByRole('menuitem', { name: 'Add a device' }).click();
  const dialog = person.getByRole('dialog', { name: 'Add a device' });
  await expect(dialog.getByRole('img', { name: /QR code of the registration link/ })).toBeVisible();
  await expect(dialog.getByText(/Works for \d+:\d\d more/)).toBeVisible();
  const link = await dialog.getByRole('textbox', { name: /Or open this link/ }).inputValue();
  expect(link).toMatch(/\/device#enrol=/);

  const { page: mobile } = await phone(browser);
  await mobile.goto(link);
  await expect(mobile.getByRole('heading', { name: 'Register this device' })).toBeVisible();
  await expect(mobile.getByText('no password is needed')).toBeVisible();
  await mobile.getByRole('textbox', { name: 'Model' }).fill('Second phone');
  // "Live" is the phone's stream, open once it waits: the decision is made only once the stream has been answered.
  const streamOpen = mobile.waitForResponse(
    (response) => response.url().endsWith('/api/Device/Events') && response.ok(),
    {
      timeout: 20_000,
    },
  );
  await mobile.getByRole('button', { name: 'Register' }).click();
  await expect(mobile.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
  await streamOpen;
  await expect(mobile.getByText(PERSON.userName)).toBeVisible();
  // The used code leaves the address.
  expect(new URL(mobile.url()).hash).toBe('');

  const state = (await mobile.evaluate(() => window.localStorage.getItem('tachyon.device'))) ?? '{}';
  await decide(mobile, (JSON.parse(state) as { authorizationRequestId: number }).authorizationRequestId, false);
  await expect(mobile.getByRole('heading', { name: 'Request rejected' })).toBeVisible();
  await expect(mobile.getByText('Checked by e2e')).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'rejected');

  // The same link does not work twice.
  const { page: third } = await phone(browser);
  await third.goto(link);
  await third.getByRole('button', { name: 'Register' }).click();
  await expect(third.getByRole('alert')).toContainText('This link no longer works');
});

test('a disabled device gets no code and says why; removed, it ends', async ({ browser }) => {
  const { page: mobile, result, personToken } = await enrolledPhone(browser, true);
  await mobile.goto('/device');
  await expect(mobile.getByRole('heading', { name: 'Approved' })).toBeVisible();
  // Web Push may be off in this service; the panel says so instead of offering a switch that cannot work.
  await expect(mobile.getByRole('region', { name: 'Notifications' })).toBeVisible();
  // The phone's dark theme too.
  await mobile.emulateMedia({ colorScheme: 'dark' });
  await expectDeviceAppAccessible(mobile, 'approved, dark');
  await mobile.emulateMedia({ colorScheme: 'light' });

  // The helpdesk disables its push user.
  const helpdesk = await apiLogin(mobile.request, 'Helpdesk');
  const device = (await (
    await mobile.request.get('/api/Device', { headers: { Authorization: `Device ${result.DeviceToken}` } })
  ).json()) as { PushMessageUserId: number };
  const disabled = await mobile.request.put('/api/Consumer/PushMessageUsers', {
    headers: bearer(helpdesk.Token),
    data: { Id: device.PushMessageUserId, Status: 2 },
  });
  expect(disabled.ok()).toBe(true);
  await expect(mobile.getByRole('heading', { name: 'This device is disabled' })).toBeVisible();
  await expect(mobile.getByText('Ask your administrator or helpdesk to enable it again')).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'disabled');

  // No code: the person has no Active device now.
  const asked = await mobile.request.post('/api/Instructions', {
    headers: bearer(personToken),
    data: { Name: 'Dashboard test' },
  });
  expect(asked.status()).toBe(409);
  await expect(mobile.getByTestId('device-code-card')).toHaveCount(0);

  // A new phone of the same type is approved: it gets a registration of its own, and this one stays Disabled.
  const replacement = await mobile.request.post('/api/Device/Enrollments', {
    headers: bearer(personToken),
    data: { DeviceType: 'Android', Manufacturer: 'Samsung', Model: 'Galaxy S25', OsVersion: '15' },
  });
  expect(replacement.status()).toBe(201);
  await decide(mobile, ((await replacement.json()) as DeviceEnrollmentResult).AuthorizationRequestId, true);
  const sent = await mobile.request.post('/api/Instructions', {
    headers: bearer(personToken),
    data: { Name: 'Dashboard test' },
  });
  expect(sent.status()).toBe(201);
  expect(((await sent.json()) as { DevicesNotified: number }).DevicesNotified).toBe(1);
  await expect(mobile.getByRole('heading', { name: 'This device is disabled' })).toBeVisible();
  await expect(mobile.getByTestId('device-code-card')).toHaveCount(0);

  // The helpdesk's page of this registration says which phone it is.
  const page = await desk(browser, 'Helpdesk');
  await page.goto(`/push-users/${device.PushMessageUserId}`);
  await expect(page.getByText('Google Pixel 9').first()).toBeVisible();
  await expect(page.getByText('Enrolled', { exact: true })).toBeVisible();
  await expect(page.getByText('Last seen', { exact: true })).toBeVisible();

  // Removed from the phone itself: back to the start.
  await mobile.getByRole('button', { name: 'Remove this device' }).click();
  const remove = mobile.getByRole('dialog', { name: 'Remove this device?' });
  await expect(remove).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'remove this device');
  await remove.getByRole('button', { name: 'Remove this device' }).click();
  await expect(mobile.getByRole('heading', { name: 'Register this phone' })).toBeVisible();
  expect(await mobile.evaluate(() => window.localStorage.getItem('tachyon.device'))).toBeNull();
  const ended = await mobile.request.get('/api/Device', { headers: { Authorization: `Device ${result.DeviceToken}` } });
  expect(ended.status()).toBe(401);
});

test('an ended credential says so; the app is installable, and its service worker shows a pushed code at once, never the code itself', async ({
  browser,
}) => {
  const { context, page: mobile, result } = await enrolledPhone(browser, false);
  await context.grantPermissions(['notifications']);
  // The person's account is disabled: the device's credential ends.
  const admin = await apiLogin(mobile.request, 'Admin');
  const accounts = (await (
    await mobile.request.get('/api/Admin/Accounts', { headers: bearer(admin.Token) })
  ).json()) as {
    Id: number;
    UserName: string;
  }[];
  const operator = accounts.find((candidate) => candidate.UserName === PERSON.userName);
  expect(operator).toBeDefined();
  await mobile.request.put(`/api/Admin/Accounts/${operator?.Id}/Enabled`, {
    headers: bearer(admin.Token),
    data: { Enabled: false },
  });
  await mobile.goto('/device');
  await expect(mobile.getByRole('heading', { name: 'This device is no longer registered' })).toBeVisible();
  await expectDeviceAppAccessible(mobile, 'credential ended');
  await mobile.request.put(`/api/Admin/Accounts/${operator?.Id}/Enabled`, {
    headers: bearer(admin.Token),
    data: { Enabled: true },
  });
  expect(result.DeviceToken).not.toBe('');

  // The service worker, registered on load with the device app's scope, gets a push through the DevTools protocol.
  const cdp = await context.newCDPSession(mobile);
  const registration = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((candidate) => candidate.scopeURL.endsWith('/device') && !candidate.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await mobile.evaluate(() => navigator.serviceWorker.ready);
  // Installable as Chromium judges it: the manifest the HTML links parses, and nothing but this test browser's
  // private profile stands in the way.
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.url).toMatch(/\/device\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  await cdp.send('ServiceWorker.enable');
  const payload: WebPushPayload = {
    web_push: 8030,
    notification: {
      title: 'Sign-in code for Dashboard test',
      body: 'Valid until 10:42',
      navigate: '/device',
      tag: 'instruction-1',
    },
  };
  const shown = () =>
    mobile.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
      })),
    );
  const registrationId = await registration;
  // A push the DevTools protocol hands a worker that a loaded machine is still starting can be lost, where a push
  // service would deliver it again: so it is delivered again, up to three times. One tag, so one notification.
  for (let attempt = 0; attempt < 3 && (await shown()).length === 0; attempt++) {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(mobile.url()).origin,
      registrationId,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(async () => (await shown()).length, { timeout: 5_000 })
      .toBeGreaterThan(0)
      .catch(() => undefined);
  }
  await expect
    .poll(shown)
    .toEqual([{ title: payload.notification.title, body: payload.notification.body, tag: payload.notification.tag }]);
});
