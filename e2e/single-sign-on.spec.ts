import net from 'node:net';
import { TEST_CLIENT, TestOidcProvider } from '../src/server/test/oidc-provider.ts';
import { lookAt } from './support/look.ts';
import { type E2eService, expect, startE2eService, test } from './support/test.ts';

/** A port nobody holds now: the service's address must be known before the provider registers its callback. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// This file's service is its own (it needs the provider's address to start), not the worker's demo one.
test.use({ baseURL: undefined });

let provider: TestOidcProvider;
let sso: E2eService;

test.beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  provider = await TestOidcProvider.start({
    redirectUris: [`${origin}/api/Consumer/Authentication/Oidc/Callback`],
    postLogoutRedirectUris: [`${origin}/login`],
  });
  sso = await startE2eService(
    {
      PUBLIC_URL: origin,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_NAME: 'Acme Login',
      OIDC_DOMAIN: 'ACME',
      OIDC_GROUP_SECURITY_READ: 'tachyon-helpdesk',
      OIDC_GROUP_SECURITY_WRITE: 'tachyon-security',
      // A writer needs a second factor (demo mode would turn the policy off).
      SECOND_FACTOR: 'writers',
    },
    port,
  );
});
test.afterAll(async () => {
  await sso?.stop();
  await provider?.stop();
});

test('single sign-on: one click at the provider (its MFA in amr) to the page wanted', async ({ page }) => {
  provider.person = {
    sub: 'erin-0042',
    claims: { preferred_username: 'erin', email: 'erin@acme.example', groups: ['tachyon-helpdesk'] },
    amr: ['pwd', 'mfa'],
  };
  await page.goto(`${sso.origin}/push-users`);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fpush-users/);
  const button = page.getByRole('link', { name: 'Sign in with Acme Login' });
  await expect(button).toBeVisible();
  await lookAt(page, 'sso-login-desktop', { fullPage: false });
  await button.click();

  await expect(page).toHaveURL(`${sso.origin}/push-users`);
  await expect(page.getByRole('heading', { name: 'Push users', level: 1 })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tachyon.session') ?? 'null'));
  expect(stored).toMatchObject({ userName: 'ACME\\erin', singleSignOn: true });
  expect(page.url()).not.toContain('sso=');
});

test('single sign-on without the provider’s MFA: the product’s second step, the page wanted, and signing out there', async ({
  page,
}) => {
  provider.person = {
    sub: 'gina-0007',
    claims: { preferred_username: 'gina', email: 'gina@acme.example', groups: ['tachyon-security'] },
    amr: ['pwd'],
  };
  // Set up through the API, as the browser would: a first single sign-on (a session that may only add a second
  // factor), and recovery codes made in it.
  const first = await page.request.get(`${sso.origin}/api/Consumer/Authentication/Oidc/Start?redirect=%2F`);
  const handover = new URL(first.url()).searchParams.get('sso') ?? '';
  const enrolment = await page.request.post(`${sso.origin}/api/Consumer/Authentication/Oidc/Session`, {
    data: { Code: handover },
  });
  expect(enrolment.status(), await enrolment.text()).toBe(200);
  const { Token } = (await enrolment.json()) as { Token: string };
  const codes = await page.request.post(`${sso.origin}/api/Admin/Accounts/Me/RecoveryCodes`, {
    headers: { authorization: `Bearer ${Token}` },
    data: {},
  });
  const [code] = ((await codes.json()) as { Codes: string[] }).Codes;

  await page.goto(`${sso.origin}/push-users`);
  await page.getByRole('link', { name: 'Sign in with Acme Login' }).click();
  await expect(page.getByText('Single sign-on recognised you.', { exact: false })).toBeVisible();
  await page.getByLabel('Recovery code').fill(code ?? '');
  await page.getByRole('button', { name: 'Use the recovery code' }).click();
  await expect(page).toHaveURL(`${sso.origin}/push-users`);
  await expect(page.getByRole('heading', { name: 'Push users', level: 1 })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tachyon.session') ?? 'null'));
  expect(stored).toMatchObject({ userName: 'ACME\\gina', singleSignOn: true });

  // Signing out ends the session here and at the provider (id_token_hint), which sends the browser back here.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/session/end`));
  await page.getByRole('button', { name: /Yes, sign me out/i }).click();
  await expect(page).toHaveURL(`${sso.origin}/login`);
  await expect(page.getByRole('link', { name: 'Sign in with Acme Login' })).toBeVisible();
  const after = await page.request.get(`${sso.origin}/api/Consumer/Authentication/Session`, {
    headers: { authorization: `Bearer ${(stored as { token: string }).token}` },
  });
  expect(after.status()).toBe(401);
});

test('single sign-on refused for a person in none of the groups: the sign-in page says so, with a way to try again', async ({
  page,
}) => {
  provider.person = { sub: 'frank-7', claims: { preferred_username: 'frank', groups: ['everyone'] }, amr: ['pwd'] };
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${sso.origin}/login`);
  const button = page.getByRole('link', { name: 'Sign in with Acme Login' });
  await expect(button).toBeVisible();
  await lookAt(page, 'sso-login-phone', { fullPage: false });
  await button.click();
  // Back on the sign-in page, the reason in the page's own words, and single sign-on offered again.
  await expect(page).toHaveURL(new RegExp(`^${sso.origin}/login\\?sso_error=oidc-no-group(&|$)`));
  const alert = page.getByRole('alert').filter({ hasText: 'No access to this dashboard' });
  await expect(alert).toContainText('none of the groups that give access');
  await expect(alert.getByRole('link', { name: 'Try again with Acme Login' })).toBeVisible();
  await expect(page.getByLabel('User name')).toBeVisible();
  await lookAt(page, 'sso-refused-phone', { fullPage: false });
  // A code the page does not know shows nothing: the address bar never puts words on the page.
  await page.goto(`${sso.origin}/login?sso_error=%3Cb%3Eyou%20are%20hacked%3C%2Fb%3E`);
  await expect(page.getByLabel('User name')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
