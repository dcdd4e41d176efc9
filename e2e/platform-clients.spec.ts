import { type AuthorizationRequest, PushMessageUserList } from '../src/shared/contract/index.ts';
import { apiLogin, bearer, resetDemo, signInAs } from './support/demo.ts';
import { lookAt } from './support/look.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => {
  await resetDemo(request);
});

test('the API reference page renders the OpenAPI document from this origin, under the CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1')) foreign.push(request.url());
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Tachyon Consumer API/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('/Consumer/PushMessageUsers/{id}')).toBeVisible();
  await expect(page.getByText('X-Tachyon-Authenticate').first()).toBeAttached();
  await lookAt(page, 'api-docs', { fullPage: false });
  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});

test('the dashboard sends the token in both headers, and a browser never gets a Basic challenge', async ({ page }) => {
  await signInAs(page, 'Admin');
  const listCall = page.waitForRequest((request) => /\/api\/Consumer\/PushMessageUsers$/.test(request.url()));
  await page.goto('/push-users');
  const headers = await (await listCall).allHeaders();
  expect(headers['x-tachyon-authenticate']).toBeTruthy();
  expect(headers.authorization).toBe(`Bearer ${headers['x-tachyon-authenticate']}`);

  const challenge = await page.evaluate(async () => {
    const response = await fetch('/api/Consumer/PushMessageUsers');
    return { status: response.status, challenge: response.headers.get('www-authenticate') };
  });
  expect(challenge.status).toBe(401);
  expect(challenge.challenge).not.toMatch(/Basic/i);
});

test("a push user registered by an authorization request shows the request's device", async ({ page, request }) => {
  const { Token } = await apiLogin(request, 'Admin');
  const created = await request.post('/api/Demo/AuthorizationRequests', {
    headers: bearer(Token),
    data: {
      UserName: 'ACME\\e2e.device',
      DeviceType: 'Android',
      Manufacturer: 'Fairphone',
      Model: 'FP5',
      OsVersion: '14',
    },
  });
  const asked = (await created.json()) as AuthorizationRequest;
  const decided = await request.post('/Consumer/Authentication/AuthorizeDevice', {
    headers: { 'X-Tachyon-Authenticate': Token },
    data: { RequestId: asked.Id, RequestGuid: asked.RequestGuid, Authorized: true },
  });
  expect(decided.status()).toBe(200);
  const users = PushMessageUserList.parse(
    await (await request.get('/Consumer/v3.2/PushMessageUsers', { headers: bearer(Token) })).json(),
  );
  const user = users.find((candidate) => candidate.UserName === 'ACME\\e2e.device');
  if (!user) throw new Error('not registered');

  await signInAs(page, 'Auditor');
  await page.goto(`/push-users/${user.Id}`);
  await expect(page.getByText('Fairphone FP5').first()).toBeVisible();
});

test("the SDK's calls work unchanged through an API account: the Basic challenge, the v3.2 segment, sign-in", async ({
  request,
}) => {
  const { Token } = await apiLogin(request, 'Admin');
  const created = await request.post('/api/Admin/Accounts', {
    headers: bearer(Token),
    data: { UserName: 'SVC\\e2e.sdk', Kind: 'Api', Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
  });
  expect(created.status()).toBe(201);
  const { UserName, Secret } = (await created.json()) as { UserName: string; Secret: string };

  // No credentials first, as the SDK does: the challenge offers Basic at the root.
  const first = await request.get('/Consumer/v3.2/PushMessageUsers');
  expect(first.status()).toBe(401);
  expect(first.headers()['www-authenticate']).toMatch(/Basic realm="Tachyon"/);
  const basic = { Authorization: `Basic ${Buffer.from(`${UserName}:${Secret}`).toString('base64')}` };
  const listed = await request.get('/Consumer/v3.2/PushMessageUsers', { headers: basic });
  expect(listed.status()).toBe(200);
  expect(listed.headers()['api-version']).toBe('3.2');
  PushMessageUserList.parse(await listed.json());
  const pending = await request.get('/Consumer/v3.2/Authentication/AuthorizationRequests?getAll=false', {
    headers: basic,
  });
  const [asked] = (await pending.json()) as AuthorizationRequest[];
  if (!asked) throw new Error('no pending request in the demo data');
  const decided = await request.post('/Consumer/v3.2/Authentication/AuthorizeDevice', {
    headers: basic,
    data: { requestId: asked.Id, requestGuid: asked.RequestGuid, authorized: false },
  });
  expect(decided.status()).toBe(200);

  const signIn = await request.post('/Consumer/v3.2/Authentication', {
    data: { userName: UserName, password: Secret },
  });
  expect(signIn.status()).toBe(200);
  expect((await signIn.json()).Successful).toBe(true);
});
