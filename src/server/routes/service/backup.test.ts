import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AuthorizationRequestList } from '../../../shared/contract/index.ts';
import { ADMIN, AUDITOR, expectProblem, HELPDESK, parseBody, useTestApp } from '../../test/harness.ts';

const BACKUP = '/api/Admin/Backup';

/** Temporary folders of backups being streamed, which must be gone once a backup is sent. */
const streamingFolders = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('tachyon-backup-'));

describe('GET /api/Admin/Backup', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN, helpdesk: HELPDESK, auditor: AUDITOR } });

  it('answers a whole copy of the database as a file to save, and removes its temporary copy', async () => {
    const before = streamingFolders();
    const response = await t.call({ method: 'GET', url: BACKUP, token: tokens.admin });
    if (t.database.dialect === 'postgres') {
      // The same endpoint on PostgreSQL answers the command instead (the test:pg run).
      const problem = expectProblem(response, 409, 'external-database');
      expect(problem.command).toMatch(/^pg_dump --format=custom --file=tachyon-2026-11-21T090000Z\.dump --dbname=/);
      return;
    }
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.sqlite3');
    expect(response.headers['content-disposition']).toBe('attachment; filename="tachyon-2026-11-21T090000Z.sqlite3"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);

    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
    try {
      const file = path.join(folder, 'copy.sqlite3');
      fs.writeFileSync(file, response.rawPayload);
      const copy = new SQLite(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const requests = parseBody(
          await t.call({
            method: 'GET',
            url: '/api/Consumer/Authentication/AuthorizationRequests?getall=true',
            token: tokens.admin,
          }),
          AuthorizationRequestList,
        );
        const copied = copy.prepare('select id from authorization_requests order by id').all() as { id: number }[];
        expect(copied.map((row) => row.id)).toEqual(requests.map((request) => request.Id).sort((a, b) => a - b));
      } finally {
        copy.close();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    await expect.poll(() => streamingFolders().filter((name) => !before.includes(name))).toEqual([]);
  });

  it('needs Accounts Write: 403 for Security-only and Accounts-less callers, 401 signed out', async () => {
    for (const token of [tokens.helpdesk, tokens.auditor]) {
      const problem = expectProblem(await t.call({ method: 'GET', url: BACKUP, token }), 403, 'forbidden');
      expect(problem).toMatchObject({ entity: 'Accounts', permission: 'Write' });
    }
    expectProblem(await t.call({ method: 'GET', url: BACKUP }), 401, 'unauthenticated');
  });

  it('is in every API version the catalogue gives it, and refuses a version the service does not have', async () => {
    for (const version of ['3.0', '3.1', '3.2', '3.3', '4.0']) {
      const response = await t.call({ method: 'GET', url: BACKUP, token: tokens.admin, version });
      expect(response.statusCode, version).toBe(t.database.dialect === 'postgres' ? 409 : 200);
      expect(response.headers['api-version']).toBe(version);
    }
    expectProblem(
      await t.call({ method: 'GET', url: BACKUP, token: tokens.admin, version: '2.0' }),
      400,
      'unsupported-version',
    );
    // An extension: under /api only, never at the site root where the Consumer interface is also served.
    expect((await t.call({ method: 'GET', url: '/Admin/Backup', token: tokens.admin })).statusCode).not.toBe(200);
  });
});
