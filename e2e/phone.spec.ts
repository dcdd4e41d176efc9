import type { Locator, Page } from '@playwright/test';
import type { AuthorizationRequest, DemoInstruction, DemoPush, PushMessageUser } from '../src/shared/contract/index.ts';
import { PAGES } from '../src/web/wiring/pages.tsx';
import { expectAccessible } from './support/axe.ts';
import { apiLogin, bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

// A phone held upright, with touch: taps, no hover.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.beforeEach(async ({ request }) => resetDemo(request));

const requestCard = (page: Page, id: number | string) => page.locator(`li [data-request-id="${id}"]`);
const requestCards = (page: Page) => page.locator('li [data-request-id]');
const pushUserCard = (page: Page, id: number) => page.locator(`li [data-push-user-id="${id}"]`);
const pushUserCards = (page: Page) => page.locator('li [data-push-user-id]');

async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: bearer(await pageToken(page)) });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}
const pendingRequests = (page: Page) =>
  api<AuthorizationRequest[]>(page, '/api/Consumer/Authentication/AuthorizationRequests?getall=false');
const pushUsers = (page: Page) => api<PushMessageUser[]>(page, '/api/Consumer/PushMessageUsers');

/** The page is no wider than the screen: nothing to scroll sideways, the header on one line. */
async function expectFitsWidth(page: Page) {
  const { scrollWidth, viewport, headerHeight, headerOverflow } = await page.evaluate(() => {
    const header = document.querySelector<HTMLElement>('header');
    const row = header?.firstElementChild as HTMLElement | null | undefined;
    return {
      scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      viewport: window.innerWidth,
      headerHeight: header?.getBoundingClientRect().height ?? 60,
      headerOverflow: row ? row.scrollWidth - row.clientWidth : 0,
    };
  });
  expect(scrollWidth, 'document width').toBeLessThanOrEqual(viewport);
  // Nor anything scrolled sideways inside the page (a table in its own scroll box): every element of the page and
  // of an open dialog lies within the screen. The one exception scrolls on purpose: a segmented filter too long
  // for a phone (push users' four counted statuses).
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *, [role="dialog"] *')]
      .filter((element) => !element.closest('.mantine-SegmentedControl-root'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5);
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80)),
  );
  expect(outside, 'elements beyond the screen edge').toEqual([]);
  expect(headerHeight, 'header height (one line)').toBeLessThanOrEqual(61);
  expect(headerOverflow, 'header overflow').toBeLessThanOrEqual(0);
}

/** Lists and details render after their data arrives (the live stream keeps the network busy): measure the finished page. */
async function settled(page: Page) {
  await expect(page.locator('.mantine-Loader-root, .mantine-Skeleton-root')).toHaveCount(0);
}

/** At least 44 × 44 CSS px (WCAG 2.5.5, Apple HIG). */
async function expectTouchTarget(target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error('target not rendered');
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThanOrEqual(44);
}

/** A full-screen sheet: the dialog covers the whole screen. */
async function expectSheet(page: Page, dialog: Locator) {
  await expect(dialog).toBeVisible();
  // The sheet slides up; measure once it has arrived.
  await expect
    .poll(async () => {
      const box = await dialog.boundingBox();
      return box ? [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)] : null;
    })
    .toEqual([0, 0, 390, 844]);
  await expectFitsWidth(page);
}

/** A long press as a finger makes it: touch down, hold, lift (Chromium's own touch pipeline). */
async function longPress(page: Page, target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error('target not rendered');
  const point = { x: box.x + box.width / 2, y: box.y + 12 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('every page fits the phone: no sideways scrolling, the header on one line, navigation behind the menu', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  const [request] = await (async () => {
    await page.goto('/authorization-requests');
    return pendingRequests(page);
  })();
  if (!request) throw new Error('demo data has no pending request');
  // Every signed-in page (from PAGES, so a new page is visited here too), and the views and detail pages below them.
  const pages: [string, string | RegExp][] = [
    ...Object.values(PAGES).map(({ to, label }): [string, string] => [to, label]),
    ['/authorization-requests?view=all', 'Authorization requests'],
    [`/authorization-requests/${request.Id}`, new RegExp(`Request #${request.Id}`)],
    ['/push-users/1', 'DEMO\\admin'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await settled(page);
    await expectFitsWidth(page);
  }

  // The lists are cards here, not a table scrolled sideways.
  await page.goto('/authorization-requests?view=all');
  await expect(requestCards(page).first()).toBeVisible();
  await expect(page.locator('table')).toHaveCount(0);

  await expect(page.getByRole('navigation', { name: 'Main' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open navigation' }).tap();
  await page.getByRole('link', { name: /Push users/ }).tap();
  await expect(page).toHaveURL(/\/push-users$/);
  await expect(pushUserCards(page).first()).toBeVisible();
  await expect(page.locator('table')).toHaveCount(0);
  await expectFitsWidth(page);

  // Signed out too.
  // The user name is hidden on a phone; the button keeps its accessible name.
  await page.getByRole('button', { name: 'account menu', exact: true }).tap();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).tap();
  await expect(page).toHaveURL(/\/login/);
  await expectFitsWidth(page);
});

test('the header stays on one line on a small phone (320 px)', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signInAs(page, 'Admin');
  for (const path of ['/authorization-requests', '/push-users', '/settings']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await settled(page);
    await expectFitsWidth(page);
  }
});

test('approve with a comment from a card: touch-sized buttons, a full-screen sheet, the card leaves', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const card = requestCards(page).first();
  const id = Number(await card.getAttribute('data-request-id'));
  // Who, which device, when, status.
  const request = (await pendingRequests(page)).find((candidate) => candidate.Id === id);
  if (!request) throw new Error('the first card is not a pending request');
  await expect(card).toContainText(request.UserName);
  await expect(card).toContainText(`${request.Manufacturer} ${request.Model}`);
  await expect(card.locator('time')).toHaveCount(1);

  const approve = card.getByRole('button', { name: /^Approve/ });
  const reject = card.getByRole('button', { name: /^Reject/ });
  await expectTouchTarget(approve);
  await expectTouchTarget(reject);
  // Together the two buttons span the card.
  const [cardBox, approveBox, rejectBox] = await Promise.all([
    card.boundingBox(),
    approve.boundingBox(),
    reject.boundingBox(),
  ]);
  expect((rejectBox?.x ?? 0) + (rejectBox?.width ?? 0) - (approveBox?.x ?? 0)).toBeGreaterThan(
    (cardBox?.width ?? 0) - 2,
  );

  await approve.tap();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await expectSheet(page, dialog);
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Checked on a call from my phone');
  await expectTouchTarget(dialog.getByRole('button', { name: 'Approve' }));
  await dialog.getByRole('button', { name: 'Approve' }).tap();

  await expect(page.getByText('Device approved')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(requestCard(page, id)).toHaveCount(0);
  expect((await pendingRequests(page)).map((r) => r.Id)).not.toContain(id);

  await page.goto(`/authorization-requests/${id}`);
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${id}`) })).toContainText('Authorized');
  await expect(page.getByText('Checked on a call from my phone').first()).toBeVisible();
  await expectFitsWidth(page);
});

test('reject from a card, then approve from the detail page', async ({ page }) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/authorization-requests');
  const card = requestCards(page).nth(1);
  const id = Number(await card.getAttribute('data-request-id'));
  await card.getByRole('button', { name: /^Reject/ }).tap();
  const rejecting = page.getByRole('dialog', { name: 'Reject this request?' });
  await expectSheet(page, rejecting);
  await rejecting.getByRole('textbox', { name: /Comment/ }).fill('User did not ask for it');
  await rejecting.getByRole('button', { name: 'Reject' }).tap();
  await expect(page.getByText('Request rejected')).toBeVisible();
  await expect(requestCard(page, id)).toHaveCount(0);
  const all = await api<AuthorizationRequest[]>(page, '/api/Consumer/Authentication/AuthorizationRequests?getall=true');
  expect(all.find((r) => r.Id === id)).toMatchObject({ Status: 'Rejected', Comment: 'User did not ask for it' });

  const [target] = await pendingRequests(page);
  if (!target) throw new Error('demo data has no pending request left');
  await requestCard(page, target.Id).getByRole('link', { name: target.UserName }).tap();
  await expect(page).toHaveURL(new RegExp(`/authorization-requests/${target.Id}$`));
  // The URL changes before the detail page replaces the list (and its Reject buttons).
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${target.Id}`) })).toBeVisible();
  await expectFitsWidth(page);
  await expectTouchTarget(page.getByRole('button', { name: /^Reject/ }));
  await expectTouchTarget(page.getByRole('button', { name: /^Approve/ }));
  await page.getByRole('button', { name: /^Approve/ }).tap();
  const approving = page.getByRole('dialog', { name: 'Approve this device?' });
  await expectSheet(page, approving);
  await approving.getByRole('button', { name: 'Approve' }).tap();
  await expect(page.getByRole('heading', { name: new RegExp(`Request #${target.Id}`) })).toContainText('Authorized');
});

test('a push user on a phone: disable from its card; Delete asks first in a full-screen sheet; the detail page switches status', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users');
  const [user, other] = (await pushUsers(page)).filter((candidate) => candidate.Status === 1);
  if (!user || !other) throw new Error('demo data has not two active push users');
  const card = pushUserCard(page, user.Id);
  await expect(card).toContainText(user.UserName);
  await expect(card).toContainText(user.DeviceType);
  await expect(card).toContainText('Active');
  await expect(card.locator('time')).toHaveCount(2);

  const change = card.getByRole('button', { name: /^Change status/ });
  await expectTouchTarget(change);
  await change.tap();
  const disable = page.getByRole('menuitem', { name: 'Disabled' });
  await expectTouchTarget(disable);
  await disable.tap();
  await expect(page.getByText('Status set to Disabled')).toBeVisible();
  await expect(card).toContainText('Disabled');
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(2);
  await expectFitsWidth(page);

  // Now disabled, it can be deleted: asked first, Cancel keeps it.
  await change.tap();
  await page.getByRole('menuitem', { name: 'Delete…' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Delete this push user?' });
  await expectSheet(page, dialog);
  await expect(dialog).toContainText(user.UserName);
  await dialog.getByRole('button', { name: 'Cancel' }).tap();
  await expect(dialog).toBeHidden();
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(2);

  await change.tap();
  await page.getByRole('menuitem', { name: 'Delete…' }).tap();
  await page.getByRole('dialog', { name: 'Delete this push user?' }).getByRole('button', { name: 'Delete' }).tap();
  await expect(page.getByText('Status set to Deleted')).toBeVisible();
  await expect(card).toContainText('Deleted');
  expect((await pushUsers(page)).find((u) => u.Id === user.Id)?.Status).toBe(3);

  await pushUserCard(page, other.Id).getByRole('link', { name: other.UserName }).tap();
  await expect(page.getByRole('heading', { name: other.UserName })).toBeVisible();
  await expectFitsWidth(page);
  await expectTouchTarget(page.locator('.mantine-SegmentedControl-label', { hasText: 'Disabled' }));
  // The first push user's toast of the same words closes on its own first, so the one below is this change's.
  await expect(page.getByText('Status set to Disabled')).toBeHidden({ timeout: 10_000 });
  await page.getByText('Disabled', { exact: true }).first().tap();
  await expect(page.getByText('Status set to Disabled')).toBeVisible();
  expect((await pushUsers(page)).find((u) => u.Id === other.Id)?.Status).toBe(2);
});

test('submit a token on a phone', async ({ page }) => {
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  const headers = bearer(await pageToken(page));
  const created = await page.request.post('/api/Demo/Instructions', { headers, data: { Scheduled: false } });
  expect(created.status()).toBe(201);
  const instruction = (await created.json()) as DemoInstruction;
  const pushes = (await (await page.request.get('/api/Demo/Pushes', { headers })).json()) as DemoPush[];
  const push = pushes.find((candidate) => candidate.InstructionId === instruction.Id && !candidate.Scheduled);
  if (!push) throw new Error('the token was not pushed');

  await page.getByRole('textbox', { name: /Instruction Id/ }).fill(String(instruction.Id));
  await page.getByRole('textbox', { name: 'Token' }).fill(push.Token);
  await expectTouchTarget(page.getByRole('button', { name: 'Submit token' }));
  await page.getByRole('button', { name: 'Submit token' }).tap();
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${instruction.Id}`);
  await expectFitsWidth(page);
});

test('a long press starts select mode; the bulk bar decides the selected requests', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = requestCards(page).nth(0);
  const second = requestCards(page).nth(1);
  const ids = [
    Number(await first.getAttribute('data-request-id')),
    Number(await second.getAttribute('data-request-id')),
  ];

  await longPress(page, first);
  await expect(page.getByRole('checkbox', { name: `Select request #${ids[0]} from`, exact: false })).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();
  // The lifted finger did not also open the request or unselect the card.
  await expect(page).toHaveURL(/\/authorization-requests$/);
  // In select mode a tap selects instead of opening; the decision buttons step aside.
  await expect(first.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await second.getByRole('link').first().tap();
  await expect(page).toHaveURL(/\/authorization-requests$/);
  await expect(page.getByRole('status').filter({ hasText: '2 selected' })).toBeVisible();

  const bulkApprove = page.getByRole('button', { name: 'Approve 2' });
  await expectTouchTarget(bulkApprove);
  await bulkApprove.tap();
  const dialog = page.getByRole('dialog', { name: 'Approve 2 requests?' });
  await expectSheet(page, dialog);
  await dialog.getByRole('textbox', { name: /Comment/ }).fill('Both checked');
  await dialog.getByRole('button', { name: 'Approve 2 requests' }).tap();
  await expect(dialog.getByRole('status')).toContainText('2 of 2: 2 done');
  await dialog.getByRole('button', { name: 'Close' }).last().tap();
  const pending = (await pendingRequests(page)).map((r) => r.Id);
  for (const id of ids) expect(pending).not.toContain(id);
});

test('select mode on push users: Select, tap cards, select all, Done; then disable two', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/push-users?status=active');
  const active = (await pushUsers(page)).filter((user) => user.Status === 1);
  const select = page.getByRole('button', { name: 'Select', exact: true });
  await expectTouchTarget(select);
  await select.tap();
  await pushUserCards(page).nth(0).tap();
  await pushUserCards(page).nth(1).tap();
  await expect(page.getByRole('status').filter({ hasText: '2 selected' })).toBeVisible();
  await pushUserCards(page).nth(1).tap();
  await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();
  await page.getByRole('checkbox', { name: `Select all ${active.length}` }).tap();
  await expect(page.getByRole('status').filter({ hasText: `${active.length} selected` })).toBeVisible();
  // Done leaves select mode and forgets the selection.
  await page.getByRole('button', { name: 'Done' }).tap();
  await expect(page.getByRole('status').filter({ hasText: 'selected' })).toHaveCount(0);
  await expect(
    pushUserCards(page)
      .first()
      .getByRole('button', { name: /^Change status/ }),
  ).toBeVisible();

  await select.tap();
  const ids = [
    Number(await pushUserCards(page).nth(0).getAttribute('data-push-user-id')),
    Number(await pushUserCards(page).nth(1).getAttribute('data-push-user-id')),
  ];
  await pushUserCards(page).nth(0).tap();
  await pushUserCards(page).nth(1).tap();
  const disable = page.getByRole('button', { name: 'Disable 2' });
  await expectTouchTarget(disable);
  await disable.tap();
  const dialog = page.getByRole('dialog', { name: 'Set 2 push users to Disabled?' });
  await expectSheet(page, dialog);
  await dialog.getByRole('button', { name: 'Set 2 push users to Disabled' }).tap();
  await expect(dialog.getByRole('status')).toContainText('2 of 2: 2 done');
  await dialog.getByRole('button', { name: 'Close' }).last().tap();
  const after = await pushUsers(page);
  for (const id of ids) expect(after.find((user) => user.Id === id)?.Status).toBe(2);
});

test('search and sort are reachable on a phone and kept in the URL', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests?view=all');
  await page.getByRole('textbox', { name: 'Search requests' }).fill('pixel');
  await expect(page).toHaveURL(/q=pixel/);
  await expect(requestCards(page).first()).toBeVisible();
  await expect(requestCards(page).filter({ hasNotText: /pixel/i })).toHaveCount(0);
  const sort = page.getByRole('combobox', { name: 'Sort by' });
  await sort.tap();
  await sort.selectOption({ label: 'Oldest first' });
  await expect(page).toHaveURL(/sort=oldest/);
  await expectFitsWidth(page);
});

test('live on a phone: new requests wait behind the bar, a request decided elsewhere greys out', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(page.getByText(/· live/)).toBeVisible();
  const before = await requestCards(page).count();
  const first = requestCards(page).first();
  const id = Number(await first.getAttribute('data-request-id'));
  const guid = (await pendingRequests(page)).find((r) => r.Id === id)?.RequestGuid;

  const helpdesk = await apiLogin(page.request, 'Helpdesk');
  const decided = await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
    headers: bearer(helpdesk.Token),
    data: { RequestId: id, RequestGuid: guid, Authorized: false },
  });
  expect(decided.ok()).toBe(true);
  await expect(first).toHaveAttribute('data-stale', 'true');
  await expect(first).toContainText('Rejected');
  await expect(first.getByRole('button', { name: /^Approve/ })).toHaveCount(0);

  const created = await page.request.post('/api/Demo/AuthorizationRequests', {
    headers: bearer(await pageToken(page)),
    data: { UserName: 'ACME\\on.the.road', Manufacturer: 'Fairphone', Model: 'Fairphone 5' },
  });
  expect(created.status()).toBe(201);
  const show = page.getByRole('button', { name: 'Show 1 new request' });
  await expect(show).toBeVisible();
  await expectTouchTarget(show);
  await expect(requestCards(page)).toHaveCount(before);
  await show.tap();
  await expect(page.getByText('ACME\\on.the.road')).toBeVisible();
  await expect(requestCard(page, id)).toHaveCount(0);
});

// UPDATE_DOCS_SCREENSHOT=1 also refreshes the phone screenshots in docs/.
const docsShot = async (page: Page, name: string) => {
  if (process.env.UPDATE_DOCS_SCREENSHOT) await page.screenshot({ path: `docs/${name}` });
};

test('the phone screens pass axe: queue cards, select mode, the sheet, a push user', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await expect(requestCards(page).first()).toBeVisible();
  await expect(page.getByText(/· live/)).toBeVisible();
  await docsShot(page, 'screenshot-phone-queue.png');
  await expectAccessible(page, 'phone-queue');

  await longPress(page, requestCards(page).first());
  await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();
  await expectAccessible(page, 'phone-select-mode');
  await page.getByRole('button', { name: 'Done' }).tap();

  await requestCards(page)
    .first()
    .getByRole('button', { name: /^Approve/ })
    .tap();
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await expectSheet(page, dialog);
  await docsShot(page, 'screenshot-phone-approve.png');
  await expectAccessible(page, 'phone-approve-sheet');
  await dialog.getByRole('button', { name: 'Cancel' }).tap();

  await page.goto('/push-users');
  await expect(pushUserCards(page).first()).toBeVisible();
  await docsShot(page, 'screenshot-phone-push-users.png');
  await expectAccessible(page, 'phone-push-users');
  await page.goto('/push-users/4');
  await expect(page.getByRole('heading', { name: 'ACME\\alice.ng' })).toBeVisible();
  await settled(page);
  await docsShot(page, 'screenshot-phone-push-user.png');
  await expectAccessible(page, 'phone-push-user');
});

test.describe('tablet', () => {
  test.use({ viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true });

  test('a tablet gets the request tables and push user cards, with nothing to scroll sideways', async ({ page }) => {
    await signInAs(page, 'Admin');
    // Push users' make and model and two times need more than an upright tablet's width: cards, as on a phone.
    await page.goto('/push-users');
    await expect(page.locator('li [data-push-user-id]').first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Push message users' })).toHaveCount(0);
    await expectFitsWidth(page);
    await expect(page.locator('li [data-push-user-id]').first().getByRole('button').first()).toBeInViewport();
    for (const [path, label, rows] of [
      ['/authorization-requests?view=all', 'Authorization requests', 'tr[data-request-id]'],
    ] as const) {
      await page.goto(path);
      const table = page.getByRole('table', { name: label });
      await expect(table).toBeVisible();
      await expect(page.locator(rows).first()).toBeVisible();
      await expectFitsWidth(page);
      // The table itself fits its frame: no scrolling inside it either.
      const overflow = await table.evaluate((element) => {
        const frame = element.closest('.mantine-Paper-root');
        return element.getBoundingClientRect().right - (frame?.getBoundingClientRect().right ?? 0);
      });
      expect(overflow).toBeLessThanOrEqual(0);
    }
    // The row actions are all on screen.
    await page.goto('/authorization-requests');
    await expect(
      page
        .locator('tr[data-request-id]')
        .first()
        .getByRole('button', { name: /^Reject/ }),
    ).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  });
});

test('Find a person from the header on a phone: the palette opens and lists the person page first', async ({
  page,
}) => {
  await signInAs(page, 'Helpdesk');
  await page.goto('/push-users');
  await page.getByRole('button', { name: 'Find a person' }).tap();
  const search = page.getByPlaceholder(/find a person/i);
  await expect(search).toBeVisible();
  await search.fill('gus');
  const first = page.locator('.mantine-Spotlight-action').first();
  await expect(first).toContainText('ACME\\gus');
  await expect(first).toContainText('Their page');
  await first.tap();
  await expect(page).toHaveURL(/\/people\/ACME%5Cgus\.moreno$/);
  await expectFitsWidth(page);
});
