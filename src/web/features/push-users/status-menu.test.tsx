import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PushMessageUser, PushUserStatusCode } from '../../../shared/contract/index.ts';
import { json, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { StatusMenu } from './status-menu.tsx';

const user: PushMessageUser = {
  Id: 7,
  DeviceType: 'iOS',
  UserName: 'ACME\\hana.sato',
  CreatedTimeStampUtc: '2026-11-17 07:30:00.000',
  ModifiedTimestampUtc: '2026-11-17 07:30:00.000',
  Status: PushUserStatusCode.Active,
  Manufacturer: 'Apple',
  Model: 'iPhone 15',
  OsVersion: '17.6.1',
};
const other: PushMessageUser = { ...user, Id: 8, UserName: 'ACME\\ken.ito' };

/** A fetch whose answer waits until the test lets it go. */
function heldFetch() {
  let release!: (response: Response) => void;
  const answer = new Promise<Response>((resolve) => {
    release = resolve;
  });
  const fetch = vi.fn(() => answer);
  return { fetch, release };
}

beforeEach(() => signInAs());
afterEach(() => vi.unstubAllGlobals());

describe('StatusMenu', () => {
  it('shows a change under way on the row, even one mounted again while it runs (a virtual list scrolling)', async () => {
    const held = heldFetch();
    vi.stubGlobal('fetch', held.fetch);
    const rows = (users: PushMessageUser[]) => (
      <>
        {users.map((row) => (
          <StatusMenu key={row.Id} user={row} />
        ))}
      </>
    );
    const { user: person, rerender } = renderWithProviders(rows([user, other]));
    const button = () => screen.getByRole('button', { name: 'Change status of ACME\\hana.sato on iOS' });

    await person.tab();
    expect(button()).toHaveFocus();
    await person.keyboard('{ArrowDown}');
    await person.click(await screen.findByRole('menuitem', { name: 'Disabled' }));
    await waitFor(() => expect(button()).toHaveAttribute('data-loading'));

    // The row leaves the rendered window and comes back: a new component, the same change still running.
    rerender(rows([other]));
    expect(screen.queryByRole('button', { name: /hana\.sato/ })).not.toBeInTheDocument();
    rerender(rows([user, other]));
    expect(button()).toHaveAttribute('data-loading');
    // Only that user's row says so.
    expect(screen.getByRole('button', { name: 'Change status of ACME\\ken.ito on iOS' })).not.toHaveAttribute(
      'data-loading',
    );

    held.release(json({ ...user, Status: PushUserStatusCode.Disabled }));
    await waitFor(() => expect(button()).not.toHaveAttribute('data-loading'));
    expect(await screen.findByText('Status set to Disabled')).toBeInTheDocument();
  });
});
