import type { Page } from '@playwright/test';
import { signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

/** Where the page's heading and the line under it are drawn, to the pixel, and the further text given. */
async function headerBoxes(page: Page, further?: string) {
  const main = page.locator('.boot-page:visible, main');
  const box = async (found: ReturnType<Page['locator']>, what: string) => {
    const drawn = await found.first().boundingBox();
    if (!drawn) throw new Error(`no ${what} drawn`);
    return drawn;
  };
  return {
    heading: await box(main.locator('h1'), 'h1'),
    description: await box(main.locator('h1 + p'), 'h1 + p'),
    further: further ? await box(main.getByText(further, { exact: false }), further) : null,
  };
}

// What index.html shows while the app's code downloads must be what the app then draws in the same place: the page's
// heading and description, so a phone paints them from the first bytes and nothing jumps when the app takes over.
for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`a page’s header is drawn before the app runs, where the app draws it (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInAs(page, 'Admin');
    const pages: [path: string, heading: string, further?: string][] = [
      ['/', 'Overview'],
      ['/authorization-requests', 'Authorization requests'],
      ['/push-users', 'Push users'],
      ['/people', 'People'],
      ['/settings', 'Settings'],
      // A phone's largest text there is the paragraph under the token form: the outline holds the form to place it.
      ['/two-factor', 'Two-factor tokens', 'that needs two-factor, and sends its code'],
      // At an IP address (the tests' 127.0.0.1) its largest text is the note that passkeys do not work there (the
      // outline's address is drawn by CSS, not text: the paragraph's box shows it is the app's).
      ['/sign-in-methods', 'Sign-in methods', 'Browsers make and use passkeys only at a name, not at an IP address'],
    ];
    for (const [path, heading, further] of pages) {
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(path);
      const outline = page.locator('.boot-page:visible');
      await expect(outline).toHaveCount(1);
      await expect(outline.locator('h1')).toHaveText(heading);
      const before = await headerBoxes(page, further);

      await page.unrouteAll();
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('.boot')).toHaveCount(0);
      expect(await headerBoxes(page, further)).toEqual(before);
    }
  });
}

// A page of one item has no header of its own before its data: its outline draws what does not depend on the item.
test('a push user’s and a person’s page show what does not depend on them before the app runs, where the app shows it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'Admin');
  const main = page.getByRole('main');
  for (const item of [
    {
      path: '/push-users/1',
      back: '/push-users',
      text: 'Active devices receive push messages.',
      ready: main.getByRole('radiogroup'),
    },
    {
      path: `/people/${encodeURIComponent('DEMO\\admin')}`,
      back: '/people',
      text: 'Each action asks first and is recorded in the audit log',
      ready: main.getByRole('heading', { name: /^Devices/ }),
    },
  ]) {
    const explanation = (scope: ReturnType<Page['locator']>) => scope.getByText(item.text, { exact: false });
    const boxes = async (scope: ReturnType<Page['locator']>) => ({
      back: await scope.locator(`a[href="${item.back}"]`).boundingBox(),
      explanation: await explanation(scope).boundingBox(),
    });

    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(item.path);
    const outline = page.locator('.boot-page:visible');
    await expect(explanation(outline)).toBeVisible();
    const before = await boxes(outline);

    await page.unrouteAll();
    await page.goto(item.path);
    await expect(item.ready).toBeVisible();
    await expect(page.locator('.boot')).toHaveCount(0);
    expect(await boxes(main)).toEqual(before);
  }
});

test('a page without an outline opens on the bare signed-in layout, and signed out on the sign-in outline', async ({
  page,
}) => {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/push-users');
  await expect(page.locator('.boot-sign-in')).toBeVisible();
  await expect(page.locator('.boot-page:visible')).toHaveCount(0);

  await signInAs(page, 'Admin');
  await page.goto('/demo');
  await expect(page.locator('.boot-shell')).toBeVisible();
  await expect(page.locator('.boot-page:visible')).toHaveCount(0);
});
