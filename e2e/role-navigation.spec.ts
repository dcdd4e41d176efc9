import type { Page } from '@playwright/test';
import { type Access, DEMO_ACCOUNTS } from '../src/shared/contract/index.ts';
import { PAGES, type Page as SignedInPage } from '../src/web/wiring/pages.tsx';
import { expectAccessible } from './support/axe.ts';
import { resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

test.beforeEach(async ({ request }) => resetDemo(request));

/**
 * What each demo account is offered, in order, derived from PAGES (each page's endpoints; the service here runs in
 * demo mode, so the demo console is listed) and the contract (each endpoint's access rule, each demo account's
 * permissions), not from the app's own check: a page the navigation offers to someone its endpoints refuse fails
 * here, and a page added later is covered without editing this list.
 */
const ROLES = DEMO_ACCOUNTS.map((account) => {
  const grants: Record<string, readonly string[]> = { Security: account.security, Accounts: account.accounts };
  const mayCall = (access: Access) =>
    access.kind !== 'permission' || grants[access.entity]?.includes(access.permission);
  const opens = (page: SignedInPage) => {
    const queries = page.anyOf ?? (page.query ? [page.query] : []);
    return queries.length === 0 || queries.some((query) => mayCall(query.endpoint.access));
  };
  const pages = Object.values(PAGES).filter(opens);
  return { role: account.role, lands: pages[0]?.to ?? '/', pages: pages.map((page) => page.label) };
});

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link');

test('each demo account: the navigation lists only pages they can open, and they land on the first', async ({
  browser,
  baseURL,
}) => {
  // The derivation refuses someone something, or it would prove nothing about refusals.
  expect(ROLES.some(({ pages }) => pages.length < Object.keys(PAGES).length)).toBe(true);
  for (const { role, lands, pages } of ROLES) {
    // A tab of its own per person, as four people at four desks.
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await signInAs(page, role);
    await page.goto('/');
    await expect(page, role).toHaveURL((url) => url.pathname === lands);
    await expect(navLinks(page), role).toHaveText(pages.map((label) => new RegExp(`^${label}`)));
    await expect(page.getByRole('heading', { level: 1 }), role).toHaveText(pages[0] ?? '');
    // Nothing on the landing page says it is locked.
    await expect(page.getByText(/Requires \w+ on/), role).toHaveCount(0);
    await context.close();
  }
});

test('the operator signs in through the form and lands on Two-factor tokens, pointed only where they can go', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByLabel('User name').fill('DEMO\\operator');
  await page.getByRole('textbox', { name: 'Password' }).fill('Operator#2026');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/two-factor');
  await expect(page.getByRole('heading', { name: 'Two-factor tokens' })).toBeVisible();
  await expect(page.getByText(/under Push users/)).toHaveCount(0);
  await expect(page.getByText('No token arriving? Open the device app')).toBeVisible();
});

test('an id that cannot be one and an unknown address are not-found pages inside the app frame', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  // A well-formed id of no request is the request page's own not-found.
  await page.goto('/authorization-requests/999999');
  await expect(page.getByText('No such authorization request')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  for (const path of ['/authorization-requests/abc', '/authorization-requests/-1', '/push-users/x1', '/nowhere']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'No such page', level: 1 })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
  }
  await page.getByRole('link', { name: 'Go to authorization requests' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/authorization-requests');
  await page.goto('/nowhere');
  await expectAccessible(page, 'not-found');
});
