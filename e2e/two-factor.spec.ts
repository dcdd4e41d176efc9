import type { Page } from '@playwright/test';
import type { DemoInstruction, DemoPush } from '../src/shared/contract/index.ts';
import { apiLogin, bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

async function createInstruction(page: Page, scheduled: boolean): Promise<{ id: number; token: string }> {
  const headers = bearer(await pageToken(page));
  const created = await page.request.post('/api/Demo/Instructions', { headers, data: { Scheduled: scheduled } });
  expect(created.status()).toBe(201);
  const instruction = (await created.json()) as DemoInstruction;
  const pushes = (await (await page.request.get('/api/Demo/Pushes', { headers })).json()) as DemoPush[];
  const push = pushes.find(
    (candidate) => candidate.InstructionId === instruction.Id && candidate.Scheduled === scheduled,
  );
  if (!push) throw new Error('the token was not pushed');
  return { id: instruction.Id, token: push.Token };
}

async function submit(page: Page, id: number, token: string) {
  await page.getByRole('textbox', { name: /Instruction Id/ }).fill(String(id));
  await page.getByRole('textbox', { name: 'Token' }).fill(token);
  await page.getByRole('button', { name: 'Submit token' }).click();
}

test('the token pushed to my device authenticates my instruction', async ({ page }) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  const { id, token } = await createInstruction(page, false);
  await expect(page.getByRole('textbox', { name: 'Token' })).toHaveAttribute('autocomplete', 'one-time-code');

  const wrong = token === '000000' ? '111111' : '000000';
  await submit(page, id, wrong);
  await expect(page.getByRole('alert')).toContainText('Wrong token');

  await submit(page, id, token);
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${id}`);

  await submit(page, id, token);
  await expect(page.getByRole('alert')).toContainText('Already authenticated');
});

test('a scheduled instruction goes through its own endpoint; pasted tokens with spaces work', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/two-factor');
  const { id, token } = await createInstruction(page, true);
  await page.getByText('A scheduled instruction').click();
  const call = page.waitForRequest(/ScheduledInstruction\/Token$/);
  await page.getByRole('textbox', { name: /Scheduled instruction Id/ }).fill(String(id));
  await page.getByRole('textbox', { name: 'Token' }).fill(`${token.slice(0, 3)} ${token.slice(3)}`);
  await expect(page.getByRole('textbox', { name: 'Token' })).toHaveValue(token);
  await page.getByRole('button', { name: 'Submit token' }).click();
  await call;
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Scheduled instruction ${id}`);
});

test("someone else's instruction and an unknown one get their own messages", async ({ page }) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  const admin = await apiLogin(page.request, 'Admin');
  const created = await page.request.post('/api/Demo/Instructions', {
    headers: bearer(admin.Token),
    data: { Scheduled: false },
  });
  const theirs = (await created.json()) as DemoInstruction;

  await submit(page, theirs.Id, '123456');
  await expect(page.getByRole('alert')).toContainText('Not your instruction');

  await submit(page, 987654, '123456');
  await expect(page.getByRole('alert')).toContainText('No such instruction');
});

test('five wrong tokens lock the instruction', async ({ page }) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  const { id, token } = await createInstruction(page, false);
  const wrong = token === '000000' ? '111111' : '000000';
  for (let attempt = 0; attempt < 5; attempt++) {
    await submit(page, id, wrong);
    await expect(page.getByRole('alert')).toBeVisible();
  }
  await submit(page, id, token);
  await expect(page.getByRole('alert')).toContainText('Locked');
});

test('API 3.0 submits through the obsolete endpoint and offers no scheduled instructions', async ({ page }) => {
  await signInAs(page, 'Operator', { apiVersion: '3.0' });
  await page.goto('/two-factor');
  const { id, token } = await createInstruction(page, false);
  await expect(page.getByText('Scheduled instructions: added in API 3.1')).toBeVisible();
  const call = page.waitForRequest(/\/api\/ConsumerAuthentication\/Token$/);
  await submit(page, id, token);
  const request = await call;
  expect(request.postDataJSON()).toEqual({ InstructionId: id, Token: token });
  await expect(page.getByRole('status', { name: 'Authenticated' })).toBeVisible();
});
