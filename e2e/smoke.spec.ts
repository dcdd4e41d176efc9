import { expect, test } from './support/test.ts';

test('the service serves the dashboard and its API', async ({ page, request }) => {
  const version = await request.get('/api/Consumer/Version');
  expect(version.ok()).toBe(true);
  expect(await version.json()).toMatchObject({ DefaultVersion: '3.3', Demo: true });

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  await expect(page).toHaveTitle(/Tachyon/i);
  await expect(page.locator('body')).not.toBeEmpty();
  expect(errors).toEqual([]);
});
