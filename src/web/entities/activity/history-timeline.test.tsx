import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiVersion, HistoryEntry, Permission } from '../../../shared/contract/index.ts';
import { json, problem, renderWithProviders, scriptedFetch } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { HistoryTimeline } from './history-timeline.tsx';

function signIn(permissions: Permission[] = ['Read', 'Write'], apiVersion: ApiVersion = '3.3') {
  signInAs(permissions, { apiVersion });
}

const entry = (overrides: Partial<HistoryEntry>): HistoryEntry => ({
  Id: 1,
  Entity: 'AuthorizationRequest',
  EntityId: 7,
  Action: 'Decided',
  From: 'Pending',
  To: 'Authorized',
  Comment: null,
  ChangedBy: 'DEMO\\admin',
  ChangedTimestampUtc: '2026-11-20 10:00:00.000',
  ...overrides,
});

afterEach(() => vi.unstubAllGlobals());

describe('HistoryTimeline', () => {
  it('lists changes newest first with who, from → to and the comment', async () => {
    signIn();
    const scripted = scriptedFetch(
      json([
        entry({
          Id: 1,
          Action: 'Created',
          From: null,
          To: 'Pending',
          ChangedBy: null,
          ChangedTimestampUtc: '2026-11-19 09:00:00.000',
        }),
        entry({ Id: 2, Comment: 'Known phone' }),
      ]),
    );
    vi.stubGlobal('fetch', scripted.fetch);
    renderWithProviders(<HistoryTimeline entity="AuthorizationRequest" id={7} />);
    const items = await screen.findAllByTestId('history-entry');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Decided');
    expect(items[0]).toHaveTextContent('PendingAuthorized');
    expect(items[0]).toHaveTextContent('DEMO\\admin');
    expect(items[0]).toHaveTextContent('“Known phone”');
    expect(items[1]).toHaveTextContent('Created');
    expect(items[1]).toHaveTextContent('the system');
    expect(scripted.calls[0]?.url).toContain('/Consumer/History?entity=AuthorizationRequest&id=7');
  });

  it('says when nothing is recorded', async () => {
    signIn();
    vi.stubGlobal('fetch', scriptedFetch(json([])).fetch);
    renderWithProviders(<HistoryTimeline entity="PushMessageUser" id={3} />);
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument();
  });

  it('explains a server without the extension (404) instead of showing an error', async () => {
    signIn();
    vi.stubGlobal('fetch', scriptedFetch(problem('not-found', 404, 'Route not found')).fetch);
    renderWithProviders(<HistoryTimeline entity="PushMessageUser" id={3} />);
    expect(await screen.findByText('This server does not record a change history.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a failure (after two retries) with Try again, which loads it', { timeout: 15_000 }, async () => {
    signIn();
    const failure = () => problem('internal', 500, 'Boom');
    vi.stubGlobal('fetch', scriptedFetch(failure, failure, failure, json([entry({})])).fetch);
    const { user } = renderWithProviders(<HistoryTimeline entity="AuthorizationRequest" id={7} />);
    expect(await screen.findByRole('alert', {}, { timeout: 8_000 })).toHaveTextContent('The server had a problem');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('history-entry')).toHaveTextContent('Authorized');
  });

  it('makes no call at API 4.0 and says why', () => {
    signIn(['Read'], '4.0');
    const scripted = scriptedFetch();
    vi.stubGlobal('fetch', scripted.fetch);
    renderWithProviders(<HistoryTimeline entity="AuthorizationRequest" id={7} />);
    expect(screen.getByTestId('history-unavailable')).toHaveTextContent('not part of API 4.0');
    expect(scripted.calls).toHaveLength(0);
  });
});
