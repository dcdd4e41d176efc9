import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';

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
