import { createServer } from 'node:net';
import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { pageToken } from './support/demo.ts';
import { type E2eService, startE2eService } from './support/test.ts';

/*
 * Passkeys in Chromium through the DevTools protocol's virtual authenticator, against a service with demo mode off and
 * the default policy (SECOND_FACTOR=writers): the break-glass admin's forced enrolment, a passkey sign-in alone and
 * through autofill, the second step after a password, step-up in place, and a reset by an administrator.
 *
 * The virtual authenticator answers a conditional (autofill) request at once, and the sign-in page makes one as it
 * opens: each step that is not about autofill takes the passkeys out of it first and puts them back just before the
 * prompt it answers.
 */

const ADMIN = { name: 'ACME\\admin', password: 'Correct-Horse-Battery-42!' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let service: E2eService;
let origin: string;
/** The administrator's full session the passkey test ends with (the tests run in order): it approves a phone. */
let adminToken = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const port = await freePort();
  // Passkeys need a name, not an IP address: the service is opened at localhost, which PUBLIC_URL says.
  origin = `http://localhost:${port}`;
  service = await startE2eService(
    {
      DEMO: 'off',
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: origin,
      ALLOWED_HOSTS: 'localhost',
      STEP_UP_MINUTES: '0.25',
    },
    port,
  );
});
test.afterAll(() => service.stop());

interface Authenticator {
  cdp: CDPSession;
  id: string;
  /** Takes its passkeys out (so an autofill request finds none); gives them back with `restore`. */
  hide(): Promise<void>;
  restore(): Promise<void>;
}

async function virtualAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId: id } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  let hidden: Awaited<ReturnType<typeof list>> = [];
  const list = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials;
  return {
    cdp,
    id,
    async hide() {
      hidden = await list();
      await cdp.send('WebAuthn.clearCredentials', { authenticatorId: id });
    },
    async restore() {
      for (const credential of hidden) await cdp.send('WebAuthn.addCredential', { authenticatorId: id, credential });
      hidden = [];
    },
  };
}

/** Counts the sign-in page's autofill (conditional) requests, so a step can wait until one is waiting. */
async function countAutofillRequests(page: Page) {
  await page.addInitScript(() => {
    const credentials = navigator.credentials;
    const get = credentials.get.bind(credentials);
    const counted = window as unknown as { autofillRequests: number };
    counted.autofillRequests = 0;
    credentials.get = (options?: CredentialRequestOptions) => {
      if (options?.mediation === 'conditional') counted.autofillRequests++;
      return get(options);
    };
  });
}
const autofillRequests = (page: Page) =>
  page.evaluate(() => (window as unknown as { autofillRequests: number }).autofillRequests);

async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function typePassword(page: Page, who: { name: string; password: string }) {
  await page.getByLabel('User name').fill(who.name);
  await page.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const HELPDESK = { name: 'ACME\\helpdesk', password: 'Helpdesk-Pass-2026!x', reset: 'Typed-In-Place-2026!y' };

/** A password sign-in through the API: the session a person without a second factor gets, or the problem. */
async function apiPassword(page: Page, who: { name: string; password: string }) {
  const response = await page.request.post(`${origin}/api/Consumer/Authentication`, {
    data: { UserName: who.name, Password: who.password },
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test('passkeys: forced enrolment, sign-in alone and by autofill, the second step, step-up in place, a reset', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const authenticator = await virtualAuthenticator(page);
  /** When the last sign-in's second factor was proved. */
  let provedAt = Date.now();
  await countAutofillRequests(page);

  await test.step('the break-glass admin’s password alone reaches only Sign-in methods, where a passkey is added', async () => {
    await page.goto(`${origin}/push-users`);
    await typePassword(page, ADMIN);
    await expect(page).toHaveURL(/\/sign-in-methods\?redirect=/);
    await expect(page.getByRole('alert').filter({ hasText: 'Add a second factor to continue' })).toBeVisible();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name').fill('Virtual laptop');
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    // On to where the person was going, with a full session.
    await expect(page).toHaveURL(/\/push-users$/);
    await expect(page.getByRole('heading', { name: 'Push users', level: 1 })).toBeVisible();
    await page.goto(`${origin}/sign-in-methods`);
    await expect(page.getByRole('list', { name: 'Passkeys' })).toContainText('Virtual laptop');
  });

  await test.step('sign in with the passkey alone: no name, no password', async () => {
    await authenticator.hide();
    const asked = await autofillRequests(page);
    await signOut(page);
    // The sign-in page's autofill request is already waiting (with no passkey to offer) before the passkeys come
    // back: otherwise, on a slow machine, it would be made after and answered at once, before the button is used.
    await expect.poll(() => autofillRequests(page)).toBeGreaterThan(asked);
    await authenticator.restore();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/authorization-requests$/);
    await expect(page.getByTestId('user-menu')).toContainText(ADMIN.name);
  });

  await test.step('the user-name field offers the passkey (conditional mediation)', async () => {
    await signOut(page);
    // The virtual authenticator answers the sign-in page's autofill request as it opens.
    await expect(page).toHaveURL(/\/authorization-requests$/);
    await expect(page.getByTestId('user-menu')).toContainText(ADMIN.name);
  });

  await test.step('the second step after a right password', async () => {
    await authenticator.hide();
    await signOut(page);
    await typePassword(page, ADMIN);
    await expect(page.getByText('Your password was right.')).toBeVisible();
    await authenticator.restore();
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await expect(page).toHaveURL(/\/authorization-requests$/);
    provedAt = Date.now();
  });

  await test.step('a password reset after STEP_UP_MINUTES asks for the passkey in place and keeps what was typed', async () => {
    const token = await pageToken(page);
    const created = await page.request.post(`${origin}/api/Admin/Accounts`, {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        UserName: HELPDESK.name,
        Password: HELPDESK.password,
        Permissions: { Security: ['Read', 'Write'], Accounts: [] },
      },
    });
    expect(created.status()).toBe(201);
    // STEP_UP_MINUTES=0.25: once 15 seconds have passed since it, the sign-in's second factor is too old.
    await page.waitForTimeout(Math.max(0, provedAt + 16_000 - Date.now()));
    await page.goto(`${origin}/accounts`);
    await page.getByRole('button', { name: `Manage ${HELPDESK.name}` }).click();
    await page.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('dialog', { name: `Reset the password of ${HELPDESK.name}` });
    await reset.getByLabel('New password').fill(HELPDESK.reset);
    await reset.getByRole('button', { name: 'Reset password' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(stepUp).toBeVisible();
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(stepUp).toBeHidden();
    await expect(reset).toBeHidden();
    // The password typed before the step-up is the one set.
    const helpdesk = await apiPassword(page, { name: HELPDESK.name, password: HELPDESK.reset });
    expect(helpdesk.status).toBe(200);
    expect(helpdesk.body.EnrolmentRequired).toBe(true);
  });

  await test.step('an administrator resets the person’s sign-in methods; they add one again at the next sign-in', async () => {
    const first = await apiPassword(page, { name: HELPDESK.name, password: HELPDESK.reset });
    const codes = await page.request.post(`${origin}/api/Admin/Accounts/Me/RecoveryCodes`, {
      headers: { Authorization: `Bearer ${first.body.Token as string}` },
    });
    expect(codes.status()).toBe(201);
    expect((await apiPassword(page, { name: HELPDESK.name, password: HELPDESK.reset })).status).toBe(401);

    await page.getByRole('button', { name: 'Reset sign-in methods' }).click();
    await page
      .getByRole('dialog', { name: `Reset the sign-in methods of ${HELPDESK.name}?` })
      .getByRole('button', { name: 'Reset sign-in methods' })
      .click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    if (await stepUp.isVisible().catch(() => false))
      await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByText(`${HELPDESK.name} adds a new second factor at their next sign-in.`)).toBeVisible();
    const after = await apiPassword(page, { name: HELPDESK.name, password: HELPDESK.reset });
    expect(after.status).toBe(200);
    expect(after.body.EnrolmentRequired).toBe(true);
  });
  adminToken = await pageToken(page);
});

test('the second step with a code sent to one’s phone, typed on the sign-in page', async ({ page }) => {
  // The person (no second factor since the reset) enrols a phone, which the administrator approves, through the API.
  const enrolment = await apiPassword(page, { name: HELPDESK.name, password: HELPDESK.reset });
  expect(enrolment.body.EnrolmentRequired).toBe(true);
  const link = await page.request.post(`${origin}/api/Device/EnrollmentLinks`, {
    headers: { Authorization: `Bearer ${enrolment.body.Token as string}` },
  });
  expect(link.status()).toBe(201);
  const enrolled = await page.request.post(`${origin}/api/Device/Enrollments`, {
    data: {
      DeviceType: 'Android',
      Manufacturer: 'Google',
      Model: 'Pixel 9',
      OsVersion: '16',
      EnrollmentCode: ((await link.json()) as { Code: string }).Code,
    },
  });
  expect(enrolled.status()).toBe(201);
  const phone = (await enrolled.json()) as { DeviceToken: string; AuthorizationRequestId: number; RequestGuid: string };
  const approved = await page.request.post(`${origin}/api/Consumer/Authentication/AuthorizeDevice`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { RequestId: phone.AuthorizationRequestId, RequestGuid: phone.RequestGuid, Authorized: true },
  });
  expect(approved.status()).toBe(200);

  await page.goto(`${origin}/login`);
  await typePassword(page, { name: HELPDESK.name, password: HELPDESK.reset });
  await expect(page.getByText('Your password was right.')).toBeVisible();
  await page.getByRole('button', { name: 'Send a code to my phone' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Pixel 9' })).toBeVisible();
  // What the device app shows: the code in the phone's inbox.
  const inbox = await page.request.get(`${origin}/api/Device/Pushes`, {
    headers: { Authorization: `Device ${phone.DeviceToken}` },
  });
  const [push] = (await inbox.json()) as Array<{ Token: string | null; Name: string }>;
  expect(push?.Name).toBe('Dashboard sign-in');
  await page.getByLabel('Code from your phone').fill(push?.Token ?? '');
  await page.getByRole('button', { name: 'Confirm the code' }).click();
  await expect(page).toHaveURL(/\/authorization-requests$/);
  await expect(page.getByTestId('user-menu')).toContainText(HELPDESK.name);
});
