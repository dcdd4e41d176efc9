import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEvent, ActivityPage as Page } from '../../../shared/contract/index.ts';
import { atAppRoute, json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { ActivityPage } from './activity-page.tsx';
import { ActivitySearch } from './activity-search.ts';

const found: ActivityEvent = {
  Id: 12,
  TimestampUtc: '2026-01-02 09:30:00.000',
  Action: 'sign-in',
  Outcome: 'failure',
  Reason: 'invalid-credentials',
  Actor: 'DEMO\\qz',
  Person: 'DEMO\\qz',
  TargetType: null,
  TargetId: null,
  SourceIp: '198.51.100.23',
  UserAgent: null,
  Details: {},
};

afterEach(() => vi.unstubAllGlobals());

describe('the Activity page searching short text', () => {
  it('says the newest events hold none, and looks further back when asked', async () => {
    signInAs(['Read'], { permissions: [{ Entity: 'Security', Permissions: ['Read'] }] });
    // The service reads a share of the events per page for text this short: the first page is empty, with a Next.
    const routes = routedFetch({
      'GET /api/Activity': ({ url }) =>
        json(
          (new URL(url, 'http://localhost').searchParams.get('before')
            ? { Events: [found], Next: null }
            : { Events: [], Next: '2026-06-01 00:00:00.000_500000' }) satisfies Page,
        ),
      'GET /api/Changes': () => new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    const { user } = renderWithProviders(atAppRoute('/activity', ActivityPage, ActivitySearch, '/activity?q=qz'));
    expect(await screen.findByText('Not found among the newest events')).toBeVisible();
    expect(screen.queryByText('No event matches')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Look further back' }));
    expect(await screen.findByText('198.51.100.23', { exact: false })).toBeVisible();
    const asked = routes.called('GET /api/Activity').map((call) => new URL(call.url, 'http://localhost').searchParams);
    expect(asked.at(-1)?.get('before')).toBe('2026-06-01 00:00:00.000_500000');
    expect(asked.at(-1)?.get('q')).toBe('qz');
    expect(await screen.findByText('That is the only event.')).toBeVisible();
  });
});

describe('the Activity page for a reader without Read on Accounts', () => {
  const withPermissions = (accounts: ('Read' | 'Write' | 'Contain')[]) => {
    signInAs(['Read', 'Write'], {
      permissions: [
        { Entity: 'Security', Permissions: ['Read', 'Write'] },
        ...(accounts.length > 0 ? [{ Entity: 'Accounts', Permissions: accounts }] : []),
      ],
    });
    const routes = routedFetch({
      'GET /api/Activity': () => json({ Events: [], Next: null } satisfies Page),
      'GET /api/Changes': () => new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', routes.fetch);
    return renderWithProviders(atAppRoute('/activity', ActivityPage, ActivitySearch, '/activity'));
  };
  const eventOptions = () =>
    Array.from(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Event' }).options, (option) => option.text);

  it('says what the service leaves out, and offers no event it could never show', async () => {
    withPermissions(['Contain']);
    expect(await screen.findByText('Nothing has happened yet')).toBeVisible();
    expect(screen.getByText(/Sign-ins and what is done to accounts .* show with Read on Accounts/)).toBeVisible();
    expect(eventOptions()).toContain('Device decision');
    expect(eventOptions()).not.toContain('Signed in');
    expect(eventOptions()).not.toContain('Account disabled');
  });

  it('says nothing of the kind to a reader of accounts, who may choose every event', async () => {
    withPermissions(['Read']);
    expect(await screen.findByText('Nothing has happened yet')).toBeVisible();
    expect(screen.queryByText(/show with Read on Accounts/)).not.toBeInTheDocument();
    expect(eventOptions()).toContain('Signed in');
    expect(eventOptions()).toContain('Account disabled');
  });
});
