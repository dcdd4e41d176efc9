import { mkdirSync } from 'node:fs';
import type { Locator, Page, ViewportSize } from '@playwright/test';

/** Where the screenshots to look at go. */
export const SCREENSHOTS = 'test-results/screenshots';

/**
 * A screenshot of a state for a person to look at (`E2E_SCREENSHOTS=1 npx playwright test …`), named for the state.
 * Nothing asserts on it, so the suite run by `npm test` skips it: a full-page PNG costs a second or so on a busy
 * machine, and there are dozens.
 */
export async function lookAt(target: Page | Locator, name: string, { fullPage = true } = {}): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await ('goto' in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}

/**
 * The same at another screen size, then back to the page's own: only when screenshots are on, so a run of the suite
 * does not resize the page back and forth for nothing (a resize re-lays the whole page out, and a step right after one
 * once waited a minute for the page's next frame).
 */
export async function lookAtSize(page: Page, name: string, size: ViewportSize, options?: { fullPage?: boolean }) {
  if (!process.env.E2E_SCREENSHOTS) return;
  const own = page.viewportSize();
  await page.setViewportSize(size);
  // Laid out again at the new size before the picture: two frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await lookAt(page, name, options);
  if (own) await page.setViewportSize(own);
}
