import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

test('the demo reset is disabled, with the reason, for a person without Security Write', async ({ page }) => {
  await signInAs(page, 'Auditor');
  await page.goto('/demo');
  const reset = page.getByRole('button', { name: 'Reset demo data' });
  await expect(reset).toHaveAttribute('aria-disabled', 'true');
  await reset.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Requires Write on Security');
  await reset.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the built dashboard publishes no source maps', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.push(response.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) {
    const script = await request.get(url);
    expect(await script.text(), url).not.toContain('sourceMappingURL');
    const map = await request.get(`${url}.map`);
    // No map file: the history fallback's page, never JSON with the sources.
    expect(await map.text(), `${url}.map`).not.toContain('"mappings"');
  }
});
