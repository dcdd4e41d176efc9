import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  endpoints,
  formatTimestamp,
  SESSION_IDLE_EXPIRES_HEADER,
  SESSION_IDLE_TIMEOUT_HEADER,
} from '../../shared/contract/index.ts';
import { SESSION_STORAGE_KEY } from '../../shared/stored-session.ts';
import { createWrapper, json, scriptedFetch } from '../test/render.tsx';
import { testSession } from '../test/session.ts';
import { endpointAccess, hasPermission } from './permissions.ts';
import { useSession, useSessionDeadlines } from './session-context.tsx';
import { currentSession, type StoredSession, sessionStore, updateDeadlines } from './session-store.ts';

const later = formatTimestamp(new Date(Date.now() + 3600_000));

const loginAnswer = {
  Token: 'tok-123',
  TokenType: 'Bearer',
  ExpiresUtc: later,
  UserName: 'DEMO\\auditor',
  Permissions: [{ Entity: 'Security', Permissions: ['Read'] }],
};

const session = (overrides: Partial<StoredSession> = {}) => testSession({ expiresUtc: later, ...overrides });

afterEach(() => vi.unstubAllGlobals());

describe('session context', () => {
  it('signs in, keeps the session in sessionStorage, and sends its token afterwards', async () => {
    const scripted = scriptedFetch(json(loginAnswer), json([]));
    vi.stubGlobal('fetch', scripted.fetch);
    const { result } = renderHook(() => useSession(), { wrapper: createWrapper() });

    await act(() => result.current.signIn({ UserName: 'DEMO\\auditor', Password: 'Auditor#2026' }, '3.2'));

    expect(result.current.session).toEqual({
      token: 'tok-123',
      userName: 'DEMO\\auditor',
      permissions: [{ Entity: 'Security', Permissions: ['Read'] }],
      expiresUtc: later,
      apiVersion: '3.2',
    });
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? 'null')).toMatchObject({ token: 'tok-123' });

    const { api, endpoints } = await import('../api/instance.ts');
    await api.call(endpoints.listPushMessageUsers);
    const headers = new Headers(scripted.calls[1]?.init.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('Api-Version')).toBe('3.2');
  });

  it('signs out by revoking the session on the server, then forgetting it', async () => {
    sessionStore.set(session());
    const scripted = scriptedFetch(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', scripted.fetch);
    const { result } = renderHook(() => useSession(), { wrapper: createWrapper() });

    await act(() => result.current.signOut());

    expect(scripted.calls[0]?.init.method).toBe('DELETE');
    expect(scripted.calls[0]?.url).toBe('/api/Consumer/Authentication/Session');
    expect(new Headers(scripted.calls[0]?.init.headers).get('Authorization')).toBe('Bearer tok');
    expect(result.current.session).toBeNull();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('forgets the session locally even when the server cannot be reached', async () => {
    sessionStore.set(session());
    vi.stubGlobal('fetch', scriptedFetch(new TypeError('offline')).fetch);
    const { result } = renderHook(() => useSession(), { wrapper: createWrapper() });
    await act(() => result.current.signOut());
    expect(result.current.session).toBeNull();
  });

  it('restores a session from sessionStorage and drops an expired one', () => {
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session()));
    expect(currentSession()?.userName).toBe('DEMO\\admin');
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session({ expiresUtc: '2020-01-01 00:00:00.000' })));
    expect(currentSession()).toBeNull();
    sessionStorage.setItem(SESSION_STORAGE_KEY, '{"not":"a session"}');
    expect(currentSession()).toBeNull();
  });

  it('re-renders what shows the deadlines on each answer, and not every reader of the session', () => {
    sessionStore.set(session());
    let sessionRenders = 0;
    let deadlineRenders = 0;
    const { result } = renderHook(
      () => {
        const value = useSession();
        sessionRenders++;
        return value;
      },
      { wrapper: createWrapper() },
    );
    const deadlines = renderHook(
      () => {
        deadlineRenders++;
        return useSessionDeadlines();
      },
      { wrapper: createWrapper() },
    );
    const before = { session: sessionRenders, deadlines: deadlineRenders, value: result.current.session };

    const idleExpires = formatTimestamp(new Date(Date.now() + 900_000));
    act(() =>
      updateDeadlines(
        new Headers({ [SESSION_IDLE_EXPIRES_HEADER]: idleExpires, [SESSION_IDLE_TIMEOUT_HEADER]: '900' }),
      ),
    );

    expect(deadlines.result.current?.idleExpires).toBe(idleExpires);
    expect(deadlineRenders).toBe(before.deadlines + 1);
    expect(sessionRenders).toBe(before.session);
    expect(result.current.session).toBe(before.value);
    expect(result.current.session).not.toHaveProperty('idleExpires');

    // Anything else that changes does reach every reader.
    act(() => sessionStore.set({ ...session(), permissions: [] }));
    expect(sessionRenders).toBe(before.session + 1);
    expect(result.current.session?.permissions).toEqual([]);
  });

  it('changes the API version of the session', async () => {
    sessionStore.set(session());
    const { result } = renderHook(() => useSession(), { wrapper: createWrapper() });
    act(() => result.current.setApiVersion('4.0'));
    await waitFor(() => expect(result.current.session?.apiVersion).toBe('4.0'));
  });
});

describe('permissions', () => {
  it('reads Security grants; Write does not imply Read', () => {
    const writer = session({ permissions: [{ Entity: 'Security', Permissions: ['Write'] }] });
    expect(hasPermission(writer, 'Write')).toBe(true);
    expect(hasPermission(writer, 'Read')).toBe(false);
    expect(endpointAccess(writer, endpoints.listPushMessageUsers)).toEqual({
      allowed: false,
      reason: 'forbidden',
      permission: 'Read',
      message: 'Requires Read on Security',
    });
  });

  it('says when the version lacks an endpoint before looking at permissions', () => {
    expect(endpointAccess(session({ apiVersion: '4.0' }), endpoints.authorizeDevice)).toMatchObject({
      allowed: false,
      reason: 'unavailable',
      message: 'removed in API 4.0',
    });
    expect(endpointAccess(session(), endpoints.authorizeDevice)).toEqual({ allowed: true });
  });
});
