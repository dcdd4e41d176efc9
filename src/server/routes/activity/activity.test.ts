import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { ACTIVITY_EXPORT_MAX, ActivityPage } from '../../../shared/contract/index.ts';
import { pruneActivity, TEXT_SCAN_ROWS } from '../../domain/activity/activity.ts';
import { indexActivity } from '../../domain/activity/activity-search-index.ts';
import { decide, enrollDevice } from '../../test/device-helpers.ts';
import {
  ADMIN,
  DEMO_STAFF,
  demoCreateRequest,
  expectProblem,
  HELPDESK,
  OPERATOR,
  parseBody,
  useTestApp,
} from '../../test/harness.ts';

describe('activity', () => {
  const { t, tokens } = useTestApp({ signIn: DEMO_STAFF });

  const activity = async (query: string, token: string = tokens.admin) => {
    const response = await t.call({ method: 'GET', url: `/api/Activity${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return parseBody(response, ActivityPage);
  };

  /** The operator enrols a phone from another address; the helpdesk approves it; the operator mistypes a password. */
  async function aDayOfEvents() {
    const phone = await enrollDevice(t, { token: tokens.operator });
    await decide(t, tokens.helpdesk, phone);
    const wrong = await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: OPERATOR[0], Password: 'not it' },
      remoteAddress: '203.0.113.50',
    });
    expect(wrong.statusCode).toBe(401);
    return phone;
  }

  it('keeps every audit event in the database, newest first, with whom it concerns and its target', async () => {
    const phone = await aDayOfEvents();
    const { Events } = await activity('');
    expect(Events.slice(0, 4).map((event) => [event.Action, event.Outcome, event.Actor, event.Person])).toEqual([
      ['sign-in', 'failure', OPERATOR[0], OPERATOR[0]],
      ['authorization-decided', 'success', HELPDESK[0], OPERATOR[0]],
      ['device-enrolled', 'success', OPERATOR[0], OPERATOR[0]],
      // The sign-ins of the test's set-up.
      ['sign-in', 'success', OPERATOR[0], OPERATOR[0]],
    ]);
    expect(Events[1]).toMatchObject({
      TargetType: 'AuthorizationRequest',
      TargetId: String(phone.AuthorizationRequestId),
      Details: { authorized: true },
    });
    expect(Events[0]).toMatchObject({ SourceIp: '203.0.113.50', Reason: 'invalid-credentials' });
    const ids = Events.map((event) => event.Id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('filters by actor, person, target, action, outcome and time, any case, and finds free text', async () => {
    const phone = await aDayOfEvents();
    const actions = (page: ActivityPage) => page.Events.map((event) => event.Action);
    expect(actions(await activity(`?actor=${encodeURIComponent('demo\\HELPDESK')}`))).toEqual([
      'authorization-decided',
      'sign-in',
    ]);
    const operators = await activity(`?person=${encodeURIComponent(OPERATOR[0])}&outcome=success`);
    expect(actions(operators)).toEqual(['authorization-decided', 'device-enrolled', 'sign-in']);
    const target = await activity(`?target=AuthorizationRequest:${phone.AuthorizationRequestId}`);
    expect(actions(target)).toEqual(['authorization-decided', 'device-enrolled']);
    expect(actions(await activity('?action=device-enrolled,authorization-decided'))).toEqual([
      'authorization-decided',
      'device-enrolled',
    ]);
    expect(actions(await activity('?outcome=failure'))).toEqual(['sign-in']);
    expect(actions(await activity('?q=203.0.113'))).toEqual(['sign-in']);
    // A failure's reason as its code, and in words as the dashboard shows it.
    expect(actions(await activity('?q=invalid-credentials'))).toEqual(['sign-in']);
    expect(actions(await activity(`?q=${encodeURIComponent('invalid credentials')}`))).toEqual(['sign-in']);
    expect(actions(await activity(`?q=${encodeURIComponent('100%')}`))).toEqual([]);
    // Time: a day includes its whole day; the test clock's day holds everything, the day before nothing.
    const today = t.clock.now().toISOString().slice(0, 10);
    const yesterday = new Date(t.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    expect((await activity(`?from=${today}&to=${today}`)).Events.length).toBeGreaterThanOrEqual(4);
    expect((await activity(`?to=${yesterday}`)).Events).toEqual([]);
    t.clock.advanceMinutes(1);
    await demoCreateRequest(t, tokens.admin);
    await enrollDevice(t, { token: tokens.operator });
    const later = t.clock.now().toISOString();
    expect(actions(await activity(`?from=${later}&person=${encodeURIComponent(OPERATOR[0])}`))).toEqual([
      'device-enrolled',
    ]);
  });

  it('pages newest first without gaps or repeats, by the Next of the page before', async () => {
    for (let i = 0; i < 7; i++) await enrollDevice(t, { token: tokens.operator });
    const all = (await activity('?action=device-enrolled&limit=200')).Events.map((event) => event.Id);
    expect(all).toHaveLength(7);
    const seen: number[] = [];
    let next: string | null = '';
    while (next !== null) {
      const page = await activity(
        `?action=device-enrolled&limit=3${next ? `&before=${encodeURIComponent(next)}` : ''}`,
      );
      seen.push(...page.Events.map((event) => event.Id));
      next = page.Next;
    }
    expect(seen).toEqual(all);
  });

  it('withholds sign-ins and account events from a caller without Read on Accounts', async () => {
    await aDayOfEvents();
    const auditors = await activity('', tokens.auditor);
    expect(auditors.Events.map((event) => event.Action)).toEqual(['authorization-decided', 'device-enrolled']);
    expect((await activity('?action=sign-in', tokens.auditor)).Events).toEqual([]);
    expect((await activity('?action=sign-in', tokens.admin)).Events.length).toBeGreaterThan(0);
  });

  it('shows temporary codes and disabled devices to a reader with Read on Accounts, not to Security Read alone', async () => {
    await enrollDevice(t, { token: tokens.operator });
    const codes = `/api/People/${encodeURIComponent(OPERATOR[0])}/TemporaryCodes`;
    const issued = await t.call({ method: 'POST', url: codes, token: tokens.helpdesk, payload: {} });
    expect(issued.statusCode, issued.body).toBe(201);
    const disabled = await t.call({
      method: 'POST',
      url: `/api/People/${encodeURIComponent(OPERATOR[0])}/Devices/Disable`,
      token: tokens.admin,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const actions = async (token: string) =>
      (await activity(`?person=${encodeURIComponent(OPERATOR[0])}`, token)).Events.map((event) => event.Action);
    // The admin holds Read on Accounts and on Security; the auditor only Security.
    expect(await actions(tokens.admin)).toEqual(expect.arrayContaining(['devices-disabled', 'temporary-code-issued']));
    const auditors = await actions(tokens.auditor);
    expect(auditors).toContain('device-enrolled');
    expect(auditors).not.toContain('devices-disabled');
    expect(auditors).not.toContain('temporary-code-issued');
    expect(auditors).not.toContain('sign-in');
    // Asking for them by name does not reach them either.
    const asked = await activity(
      '?action=temporary-code-issued,devices-disabled,temporary-code-revoked',
      tokens.auditor,
    );
    expect(asked.Events).toEqual([]);
  });

  /** Events as the store writes them, straight into the table: more than a page's look-ahead of free text. */
  async function insertEvents(events: { at: string; action?: string; search: string }[]) {
    for (let from = 0; from < events.length; from += 500) {
      await t.database.db
        .insertInto('activity_events')
        .values(
          events.slice(from, from + 500).map(({ at, action = 'token-accepted', search }) => ({
            at,
            action,
            outcome: 'success',
            search: `${action}\n${search}`,
          })),
        )
        .execute();
    }
  }

  /** Events the text index does not hold yet (SQLite's is kept behind the writes; PostgreSQL's by the database). */
  async function unindexed(): Promise<number> {
    if (t.database.dialect === 'postgres') return 0;
    const { tail } = await t.database.db
      .selectFrom('activity_search_state')
      .select(sql<number>`coalesce((select max(id) from activity_events), 0) - indexed_through`.as('tail'))
      .executeTakeFirstOrThrow();
    return Number(tail);
  }

  it('finds free text in any event, however old: a part of a word, any case, % and _ as themselves', async () => {
    // The set-up's sign-ins are indexed once the writes pause; the rows below are not, until indexed in the test.
    await vi.waitFor(async () => expect(await unindexed()).toBe(0), { timeout: 10_000 });
    // Found past the newest rows, which hold none of these.
    await insertEvents([
      { at: '2020-01-01 00:00:01.000', search: 'jane.doe@example.com 198.51.100.7' },
      { at: '2020-01-01 00:00:02.000', search: 'offer 50%_off' },
      { at: '2020-01-01 00:00:03.000', search: 'offer 50x-off' },
      { at: '2020-01-01 00:00:04.000', search: 'qz' },
    ]);
    const filler = Array.from({ length: 11_000 }, (_, n) => ({
      at: `2021-01-01 ${String(Math.floor(n / 3600) % 24).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000`,
      search: `acme\\user${n % 97} 10.0.${n % 250}.1 mozilla/5.0`,
    }));
    await insertEvents(filler);
    // And one in the newest rows, which comes first.
    await insertEvents([{ at: '2022-01-01 00:00:00.000', search: 'jane.doe@example.com, again' }]);
    // Written last but dated first (a clock set back): past the newest rows by time, the newest by id.
    await insertEvents([{ at: '2019-06-01 00:00:00.000', search: 'late-comer from 192.0.2.44' }]);
    const found = async (q: string) =>
      (await activity(`?q=${encodeURIComponent(q)}&limit=200`)).Events.map((event) => event.TimestampUtc);
    const everyText = async () => {
      expect(await found('DOE@EXAMPLE')).toEqual(['2022-01-01 00:00:00.000', '2020-01-01 00:00:01.000']);
      expect(await found('51.100.7')).toEqual(['2020-01-01 00:00:01.000']);
      expect(await found('50%_off')).toEqual(['2020-01-01 00:00:02.000']);
      expect(await found('0%_o')).toEqual(['2020-01-01 00:00:02.000']);
      expect(await found('192.0.2.44')).toEqual(['2019-06-01 00:00:00.000']);
      // Shorter than a trigram: read through, and found all the same.
      expect(await found('qz')).toEqual(['2020-01-01 00:00:04.000']);
      expect(await found('nowhere-at-all')).toEqual([]);
    };
    // Before the index holds them: every one is found all the same, by its own column.
    if (t.database.dialect === 'sqlite') expect(await unindexed()).toBe(11_006);
    await everyText();
    // Indexed in batches: found through the index, the same.
    expect(await indexActivity(t.database.db)).toBe(t.database.dialect === 'sqlite' ? 11_006 : 0);
    expect(await unindexed()).toBe(0);
    await everyText();
    // A page at a time through the index's rows as through the newest.
    const first = await activity(`?q=${encodeURIComponent('doe@example')}&limit=1`);
    expect(first.Events.map((event) => event.TimestampUtc)).toEqual(['2022-01-01 00:00:00.000']);
    const second = await activity(
      `?q=${encodeURIComponent('doe@example')}&limit=1&before=${encodeURIComponent(first.Next ?? '')}`,
    );
    expect(second.Events.map((event) => event.TimestampUtc)).toEqual(['2020-01-01 00:00:01.000']);
    expect(second.Next).toBeNull();
    // Pruned events leave the index with their rows.
    await pruneActivity(t.database.db, new Date('2021-01-01T00:00:00Z'), 0);
    expect(await found('doe@example')).toEqual(['2022-01-01 00:00:00.000']);
    expect(await found('50%_off')).toEqual([]);
  });

  it('reads text no index narrows a bounded number of events per page, and says where to read on', async () => {
    await insertEvents([
      { at: '2020-01-01 00:00:00.000', search: 'qz' },
      { at: '2020-01-01 00:00:01.000', search: 'port 10_1' },
      { at: '2020-01-01 00:00:02.000', search: 'from the station' },
      { at: '2020-01-01 00:00:03.000', search: 'marathon' },
    ]);
    // More events than a bounded read reads, each holding every trigram of "station" but not the word.
    await insertEvents(
      Array.from({ length: TEXT_SCAN_ROWS + 2_000 }, (_, n) => ({
        at: new Date(Date.UTC(2021, 0, 1) + n * 1000).toISOString().replace('T', ' ').slice(0, 23),
        search: `filler ${n} status authorization`,
      })),
    );
    const times = (page: ActivityPage) => page.Events.map((event) => event.TimestampUtc);
    // Text most events hold fills the first page from the newest.
    expect((await activity('?q=er&limit=50')).Events).toHaveLength(50);
    // Text few hold: the first page reads its share, finds none, and says where to read on; the next finds it.
    const readOn = async (q: string) => {
      const first = await activity(`?q=${encodeURIComponent(q)}`);
      expect(first.Events).toEqual([]);
      expect(first.Next).not.toBeNull();
      const second = await activity(`?q=${encodeURIComponent(q)}&before=${encodeURIComponent(first.Next ?? '')}`);
      expect(second.Next).toBeNull();
      return times(second);
    };
    expect(await readOn('qz')).toEqual(['2020-01-01 00:00:00.000']);
    // Three characters and more: PostgreSQL's pg_trgm knows only words of letters and digits, and the words of 10_1
    // are in nearly every event, so it reads on as above; SQLite's trigrams hold the _ and find it at once.
    if (t.database.dialect === 'postgres') expect(await readOn('10_1')).toEqual(['2020-01-01 00:00:01.000']);
    else expect(times(await activity('?q=10_1'))).toEqual(['2020-01-01 00:00:01.000']);
    // A word whose every trigram nearly every event holds: pg_trgm's index would name every row, so PostgreSQL reads
    // on as above; SQLite's index, asked for its rarest trigrams, reads their rows.
    if (t.database.dialect === 'postgres') expect(await readOn('Station')).toEqual(['2020-01-01 00:00:02.000']);
    else expect(times(await activity('?q=Station'))).toEqual(['2020-01-01 00:00:02.000']);
    // A word of trigrams few events hold is found through the index at once, however old, on both.
    const marathon = await activity('?q=marathon');
    expect(times(marathon)).toEqual(['2020-01-01 00:00:03.000']);
    expect(marathon.Next).toBeNull();
  });

  it('exports every matching event as CSV, past any page, formulas inert, account events as the page shows them', async () => {
    await aDayOfEvents();
    // A user name a spreadsheet would run, typed at the sign-in.
    await t.call({
      method: 'POST',
      url: '/api/Consumer/Authentication',
      payload: { UserName: '=HYPERLINK("http://x.example")', Password: 'no' },
    });
    for (let i = 0; i < 3; i++) await enrollDevice(t, { token: tokens.operator });
    const exported = async (query: string, token: string = tokens.admin) => {
      const response = await t.call({ method: 'GET', url: `/api/Activity/Export${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="activity-[\d-]+\.csv"$/);
      return response.body.split('\r\n').slice(0, -1);
    };
    const enrolled = await exported('?action=device-enrolled');
    expect(enrolled[0]).toBe(
      'Id,Time (UTC),Action,Outcome,Reason,Actor,Person,Target type,Target id,Address,User-Agent,Details',
    );
    // Every one, as the page lists them a page at a time.
    const listed = (await activity('?action=device-enrolled&limit=1')).Next;
    expect(listed).not.toBeNull();
    const all = (await activity('?action=device-enrolled&limit=200')).Events;
    expect(enrolled.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(all.map((event) => event.Id));
    expect(enrolled[1]).toMatch(/^\d+,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,device-enrolled,success,,/);
    const failures = await exported('?outcome=failure');
    expect(failures[1]).toContain(`"'=HYPERLINK(""http://x.example"")"`);
    // Sign-ins are account administration's: the auditor's export holds none, as their page shows none.
    const auditors = await exported('', tokens.auditor);
    expect(auditors.length).toBeGreaterThan(1);
    expect(auditors.some((line) => line.includes(',sign-in,'))).toBe(false);
    expect(await exported('?q=nowhere-at-all')).toHaveLength(1);
  });

  it('refuses an export of more events than it holds, asking for a narrower filter, and exports a narrower one whole', async () => {
    await insertEvents(
      Array.from({ length: ACTIVITY_EXPORT_MAX + 1 }, (_, n) => ({
        at: `2021-01-01 00:00:00.${String(n % 1000).padStart(3, '0')}`,
        search: `filler ${n}`,
      })),
    );
    const response = await t.call({ method: 'GET', url: '/api/Activity/Export', token: tokens.admin });
    expect(expectProblem(response, 400, 'validation').detail).toContain('Narrow it');
    // Narrowed to half of them: every one, a batch at a time, none twice.
    const narrower = await t.call({
      method: 'GET',
      url: '/api/Activity/Export?from=2021-01-01T00:00:00.500Z&to=2021-01-01T00:00:01Z',
      token: tokens.admin,
    });
    expect(narrower.statusCode, narrower.body).toBe(200);
    const ids = narrower.body
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[0]);
    expect(ids).toHaveLength(ACTIVITY_EXPORT_MAX / 2);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it('prunes events past the retention, and keeps the rest', async () => {
    await aDayOfEvents();
    const before = (await activity('?limit=200')).Events.length;
    t.clock.advanceMinutes(10 * 24 * 60);
    const admin = await t.login(...ADMIN);
    expect(await pruneActivity(t.database.db, t.clock.now(), 5)).toBe(before);
    expect((await activity('?limit=200', admin)).Events.map((event) => event.Action)).toEqual(['sign-in']);
  });

  describe('refuses', () => {
    it('malformed filters with a 400 naming each', async () => {
      for (const [query, path] of [
        ['?target=Nothing:1', 'target'],
        ['?target=AuthorizationRequest', 'target'],
        ['?outcome=maybe', 'outcome'],
        ['?action=DROP%20TABLE', 'action'],
        ['?from=yesterday', 'from'],
        ['?to=2026-13-45T99:99Z', 'to'],
        ['?before=12', 'before'],
        ['?limit=0', 'limit'],
        ['?limit=201', 'limit'],
        ['?actor=', 'actor'],
        ['?q=', 'q'],
      ] as const) {
        const response = await t.call({ method: 'GET', url: `/api/Activity${query}`, token: tokens.admin });
        const problem = expectProblem(response, 400, 'validation');
        expect(
          problem.errors?.map((error) => error.path),
          query,
        ).toContain(path);
      }
      // The right shape, a day that does not exist.
      const response = await t.call({ method: 'GET', url: '/api/Activity?from=2026-02-30', token: tokens.admin });
      expect(expectProblem(response, 400, 'validation').detail).toContain('2026-02-30');
    });

    it('an unknown person or target with an empty page, not an error', async () => {
      expect((await activity(`?person=${encodeURIComponent('ACME\\nobody')}`)).Events).toEqual([]);
      expect((await activity('?target=AuthorizationRequest:999999')).Events).toEqual([]);
    });

    it('a caller without Read on Security, one not signed in, and a version this service does not have', async () => {
      expectProblem(await t.call({ method: 'GET', url: '/api/Activity', token: tokens.operator }), 403, 'forbidden');
      expectProblem(await t.call({ method: 'GET', url: '/api/Activity' }), 401, 'unauthenticated');
      const exportUrl = '/api/Activity/Export';
      expectProblem(await t.call({ method: 'GET', url: exportUrl, token: tokens.operator }), 403, 'forbidden');
      expectProblem(await t.call({ method: 'GET', url: exportUrl }), 401, 'unauthenticated');
      const bad = await t.call({ method: 'GET', url: `${exportUrl}?outcome=maybe`, token: tokens.admin });
      expect(expectProblem(bad, 400, 'validation').detail).toContain('outcome');
      const old = await t.call({ method: 'GET', url: '/api/Activity', token: tokens.admin, version: '2.0' });
      expect(old.statusCode, old.body).toBe(400);
    });
  });
});
