import type { Locator, Page } from '@playwright/test';
import type { AuthorizationRequest, DemoInstruction, DemoPush, PushMessageUser } from '../src/shared/contract/index.ts';
import { account, apiLogin, bearer, pageToken, resetDemo, signInAs } from './support/demo.ts';
import { expect, test } from './support/test.ts';

/*
 * Every flow with the keyboard alone: no click, no fill. The page is reached by typing its address (what a person
 * does in the address bar) or through links; everything else is Tab, Shift+Tab, arrows, Enter, Space and Escape.
 */

test.beforeEach(async ({ request }) => resetDemo(request));

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement || element.contains(document.activeElement));

/** Presses Tab (or Shift+Tab) until the element has focus, checking each stop shows where focus is. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}): Promise<void> {
  // Attached, not visible: a segmented control's radios are drawn by their labels.
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${target} not reached in ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** Opens a dialog from its button by keyboard, closes it with Escape, and sees focus back on the button. */
async function openThenEscape(page: Page, opener: Locator, dialogName: string): Promise<Locator> {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  return dialog;
}

/** WCAG 2.4.7: the focused element is drawn with a visible outline, ring or (a text field or list box) a primary-coloured border. */
async function expectFocusVisible(page: Page): Promise<void> {
  const focusDrawn = () =>
    page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return 'nothing focused';
      // A radio's ring is drawn on the segment around it.
      const drawn = element.matches('input[type="radio"]') ? (element.closest('label') ?? element) : element;
      const css = getComputedStyle(element);
      const around = getComputedStyle(drawn);
      const probe = document.createElement('span');
      probe.style.color = 'var(--mantine-primary-color-filled)';
      document.body.append(probe);
      const primary = getComputedStyle(probe).color;
      probe.remove();
      // The border may be the field's own or its wrapper's (a password field with its reveal button).
      const bordered = (start: Element, colour: string) => {
        let node: Element | null = start;
        for (let depth = 0; node && depth < 3; depth += 1, node = node.parentElement) {
          if (getComputedStyle(node).borderTopColor === colour) return true;
        }
        return false;
      };
      const field = element.matches('input:not([type="radio"]):not([type="checkbox"]), textarea, select');
      const visible =
        (css.outlineStyle !== 'none' && Number.parseFloat(css.outlineWidth) > 0) ||
        around.outlineStyle !== 'none' ||
        around.boxShadow !== 'none' ||
        (field && bordered(element, primary));
      const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
      return visible ? 'visible' : `no visible focus on ${element.tagName.toLowerCase()} ${name}`;
    });
  // A field's border colour eases in over a few frames.
  await expect.poll(focusDrawn, { timeout: 2_000 }).toMatch(/^(visible|nothing focused)$/);
}

const rows = (page: Page) => page.locator('tbody tr[data-request-id]');

test('sign in, approve with a comment and reject, by keyboard alone; a dialog returns focus to what opened it', async ({
  page,
}) => {
  const admin = account('Admin');
  await page.goto('/login');
  await tabTo(page, page.getByRole('textbox', { name: 'User name' }));
  await page.keyboard.type(admin.userName);
  await page.keyboard.press('Tab');
  await page.keyboard.type(admin.password);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login/);

  await tabTo(page, page.getByRole('navigation').getByRole('link', { name: /^Authorization requests/ }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/authorization-requests/);
  const first = rows(page).first();
  await expect(first).toBeVisible();
  const firstId = await first.getAttribute('data-request-id');

  // Escape closes a dialog and gives focus back to the button that opened it.
  const approve = await openThenEscape(page, first.getByRole('button', { name: /^Approve/ }), 'Approve this device?');

  await page.keyboard.press('Enter');
  await expect(approve.getByRole('textbox', { name: /Comment/ })).toBeFocused();
  await page.keyboard.type('Approved by keyboard');
  await tabTo(page, approve.getByRole('button', { name: 'Approve', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Device approved')).toBeVisible();
  await expect(page.locator(`tr[data-request-id="${firstId}"]`)).toHaveCount(0);

  // Focus went on to the next request; its Reject button is a few Tabs away.
  const next = rows(page).first();
  const nextId = await next.getAttribute('data-request-id');
  await tabTo(page, next.getByRole('button', { name: /^Reject/ }));
  await page.keyboard.press('Enter');
  const reject = page.getByRole('dialog', { name: 'Reject this request?' });
  await expect(reject.getByRole('textbox', { name: /Comment/ })).toBeFocused();
  await page.keyboard.type('Unknown device');
  await tabTo(page, reject.getByRole('button', { name: 'Reject', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Request rejected')).toBeVisible();
  await expect(page.locator(`tr[data-request-id="${nextId}"]`)).toHaveCount(0);

  const token = await pageToken(page);
  const decided = await page.request.get(`/api/Consumer/Authentication/AuthorizationRequests/${nextId}`, {
    headers: bearer(token),
  });
  expect(await decided.json()).toMatchObject({ Status: 'Rejected', Comment: 'Unknown device' });
});

test('change a push user status by keyboard alone: the row menu, the confirmation, the detail page switcher', async ({
  page,
}) => {
  const token = await signInAs(page, 'Admin');
  const users = (await (
    await page.request.get('/api/Consumer/PushMessageUsers', { headers: bearer(token) })
  ).json()) as PushMessageUser[];
  const active = users.find((user) => user.Status === 1);
  if (!active) throw new Error('the demo data has no active push user');
  await page.goto('/push-users');
  const row = page.locator(`tr[data-push-user-id="${active.Id}"]`);

  // The row menu: arrows to Delete…, Enter; the confirmation's Cancel by Escape returns focus to the menu button.
  const menuButton = row.getByRole('button', { name: /^Change status/ });
  await tabTo(page, menuButton);
  await page.keyboard.press('Enter');
  const remove = page.getByRole('menuitem', { name: 'Delete…' });
  await expect(remove).toBeVisible();
  for (let presses = 0; presses < 5 && !(await isFocused(remove)); presses += 1) await page.keyboard.press('ArrowDown');
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete this push user?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(row).toContainText('Active');

  // The detail page: the status switcher is a radio group; an arrow moves to Disabled and applies it.
  await tabTo(page, row.getByRole('link').first());
  await page.keyboard.press('Enter');
  const status = page.getByRole('radiogroup', { name: 'Status', exact: true });
  await expect(status).toBeVisible();
  await tabTo(page, status.getByRole('radio', { name: 'Active' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Status set to Disabled')).toBeVisible();
  await expect(status.getByRole('radio', { name: 'Disabled' })).toBeChecked();
  const stored = await page.request.get(`/api/Consumer/PushMessageUsers/${active.Id}`, { headers: bearer(token) });
  expect(((await stored.json()) as PushMessageUser).Status).toBe(2);
});

test("the queue's view and sort change by keyboard, and the URL follows", async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const views = page.getByRole('radiogroup', { name: 'Which requests' });
  await expect(views.getByRole('radio', { name: /^Pending/ })).toBeChecked();
  await tabTo(page, views.getByRole('radio', { name: /^Pending/ }));
  await page.keyboard.press('ArrowRight');
  await expect(views.getByRole('radio', { name: 'All requests' })).toBeChecked();
  await expect(page).toHaveURL(/view=all/);

  const sort = page.getByRole('combobox', { name: 'Sort by' });
  await tabTo(page, sort);
  await expect(sort).toHaveValue('newest');
  // A closed list box takes the arrow keys itself (the browser's select), without opening.
  await page.keyboard.press('ArrowDown');
  await expect(sort).toHaveValue('oldest');
  await expect(page).toHaveURL(/sort=oldest/);
});

test('submit a two-factor token by keyboard alone', async ({ page }) => {
  await signInAs(page, 'Operator');
  const headers = bearer((await apiLogin(page.request, 'Operator')).Token);
  const created = await page.request.post('/api/Demo/Instructions', { headers, data: { Scheduled: false } });
  const instruction = (await created.json()) as DemoInstruction;
  const pushes = (await (await page.request.get('/api/Demo/Pushes', { headers })).json()) as DemoPush[];
  const push = pushes.find((candidate) => candidate.InstructionId === instruction.Id && !candidate.Scheduled);
  if (!push) throw new Error('the token was not pushed');

  await page.goto('/two-factor');
  await tabTo(page, page.getByRole('textbox', { name: /Instruction Id/ }));
  await page.keyboard.type(String(instruction.Id));
  await tabTo(page, page.getByRole('textbox', { name: 'Token' }));
  await page.keyboard.type(push.Token);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status', { name: 'Authenticated' })).toContainText(`Instruction ${instruction.Id}`);
});

test('what changes without navigation is announced: new requests, and a request decided by someone else', async ({
  page,
}) => {
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  const first = rows(page).first();
  await expect(first).toBeVisible();
  await expect(page.getByText(/· live/)).toBeVisible();
  const region = page.getByTestId('live-region');
  await expect(region).toHaveAttribute('aria-live', 'polite');

  const other = bearer((await apiLogin(page.request, 'Helpdesk')).Token);
  const id = Number(await first.getAttribute('data-request-id'));
  const request = (await (
    await page.request.get(`/api/Consumer/Authentication/AuthorizationRequests/${id}`, { headers: other })
  ).json()) as AuthorizationRequest;
  const decided = await page.request.post('/api/Consumer/Authentication/AuthorizeDevice', {
    headers: other,
    data: { RequestId: id, RequestGuid: request.RequestGuid, Authorized: false, Comment: 'Not ours' },
  });
  expect(decided.status()).toBe(200);
  await expect(region).toHaveText(`Request ${id}: Rejected by ${account('Helpdesk').userName} just now.`);

  const created = await page.request.post('/api/Demo/AuthorizationRequests', {
    headers: other,
    data: { UserName: 'DEMO\\visitor', DeviceType: 'Loaner laptop' },
  });
  expect(created.status()).toBe(201);
  await expect(region).toHaveText('1 new request arrived. Choose "Show 1 new request" to list it.');
});

test('reduced motion: dialogs open without a transition', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signInAs(page, 'Admin');
  await page.goto('/authorization-requests');
  await rows(page)
    .first()
    .getByRole('button', { name: /^Approve/ })
    .press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Approve this device?' });
  await expect(dialog).toBeVisible();
  const durations = await dialog.evaluate((element) => {
    const seconds = (value: string) => Math.max(...value.split(',').map((part) => Number.parseFloat(part)));
    const ownAndAncestors: Element[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) ownAndAncestors.push(node);
    return ownAndAncestors.map((node) => seconds(getComputedStyle(node).transitionDuration));
  });
  expect(Math.max(...durations)).toBeLessThan(0.01);
});

test('a person action asks first and, cancelled by Escape, gives focus back to its button', async ({ page }) => {
  await signInAs(page, 'Admin');
  await page.goto(`/people/${encodeURIComponent('ACME\\alice.ng')}`);
  await openThenEscape(
    page,
    page.getByRole('button', { name: 'Sign out everywhere' }),
    'Sign ACME\\alice.ng out everywhere?',
  );
});

test('reduced motion: a theme switch starts no transition, so text inside a list takes the new colour with its list', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
  await signInAs(page, 'Operator');
  await page.goto('/two-factor');
  await expect(page.getByRole('listitem').filter({ hasText: 'waits for its token' })).toBeVisible();
  // Read at the moment the theme changes, before the next frame: what a transition would still hold back shows then.
  const lightDimmed = await page.evaluate(() => {
    const item = [...document.querySelectorAll('li')].find((li) => li.textContent?.includes('waits for its token'));
    const probe = window as unknown as { switched?: Promise<unknown> };
    probe.switched = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (document.documentElement.getAttribute('data-mantine-color-scheme') !== 'dark') return;
        observer.disconnect();
        // A new element has no colour to move from: it shows the dark theme's dimmed text as it is.
        const dimmed = document.createElement('span');
        dimmed.style.color = 'var(--mantine-color-dimmed)';
        document.body.append(dimmed);
        resolve({
          dimmed: getComputedStyle(dimmed).color,
          item: item && getComputedStyle(item).color,
          list: item?.parentElement && getComputedStyle(item.parentElement).color,
          transitions: document.getAnimations().filter((animation) => animation instanceof CSSTransition).length,
        });
        dimmed.remove();
      });
      observer.observe(document.documentElement, { attributeFilter: ['data-mantine-color-scheme'] });
    });
    return item && getComputedStyle(item).color;
  });
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  const switched = await page.evaluate(
    () => (window as unknown as { switched: Promise<{ dimmed: string; item: string; list: string }> }).switched,
  );
  expect(switched).toEqual({ dimmed: switched.dimmed, item: switched.dimmed, list: switched.dimmed, transitions: 0 });
  expect(switched.dimmed).not.toBe(lightDimmed);
});
