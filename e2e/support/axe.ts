import { expect, type Page, test } from '@playwright/test';
import axe from 'axe-core';
import { lookAt } from './look.ts';

/**
 * The time one check may add to its test's limit. The limit is there to catch a hang; axe reads the whole page once
 * per theme, which takes seconds on a slow machine, so a test that checks several states gets time for each of them.
 */
const CHECK_ALLOWANCE_MS = 15_000;

/** The axe-core rules whose outcome depends on the colours a theme gives (text and link contrast). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * What the page shows now, judged by axe-core: every rule it runs by default (WCAG 2.0/2.1/2.2 A and AA, target size,
 * best practice; no tag subset, no impact tolerated) in the light theme, and the rules that read colours in the dark
 * one (the same elements, names and roles, other colours). Soft, so one state's violations do not hide the next's.
 * axe runs in the page itself (the app has no frames), loaded once per document (see violationsOf).
 * `themes: ['light']` judges a page that has no dark theme (the device app follows the phone's, and is judged so).
 */
export async function expectAccessible(
  page: Page,
  name: string,
  { themes = ['light', 'dark'] }: { themes?: readonly ('light' | 'dark')[] } = {},
): Promise<void> {
  test.info().setTimeout(test.info().timeout + CHECK_ALLOWANCE_MS);
  // Where the last click left the pointer is no part of the page: a disabled button's reason under it would show.
  await page.mouse.move(0, 0);
  for (const scheme of themes) {
    if (themes.length > 1) {
      // The app follows the system's scheme (MantineProvider defaultColorScheme="auto"), so it switches in place.
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      // Colours are measured as people see them: a frame after the switch (what React renders for the new scheme),
      // and once any transition it started has run. The suite runs with reduced motion, where the app starts none
      // (keyboard.spec proves it), so this waits for them only in a run without it. Only running ones with an end: a
      // loader never ends, a paused one waits for nothing. A theme's transitions last a fraction of a second, so 3 s
      // is a cap that never cuts one short.
      await page.evaluate(async () => {
        const settled = (async () => {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const ending = document
            .getAnimations()
            .filter(
              (animation) =>
                animation.playState === 'running' &&
                animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
            );
          await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
        })();
        await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      });
    }
    await lookAt(page, `${name}-${scheme}`);
    const violations = await violationsOf(page, scheme === 'dark' ? COLOUR_RULES : undefined);
    expect.soft(violations, `${name} in the ${scheme} theme: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
  }
  if (themes.length > 1) await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * What axe finds on the page as it is now: every default rule, or only `rules`; each violation with what it needs.
 * axe-core runs in the page itself, put there once per document. @axe-core/playwright's legacy mode (the one for pages
 * without frames) evaluated axe's half a megabyte of source twice on every run and sent back every passing node too:
 * on two cores that was most of a check's time (1.5-6 s).
 */
export async function violationsOf(page: Page, rules?: string[]) {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(async (only) => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      resultTypes: ['violations'],
    });
    return violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} :: ${node.failureSummary}`),
    }));
  }, rules);
}
