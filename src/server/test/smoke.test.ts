import { describe, expect, it } from 'vitest';
import { ADMIN, useTestApp } from './harness.ts';

describe('test harness', () => {
  const { t } = useTestApp({ per: 'file' });

  it('serves the version document and signs the demo admin in', async () => {
    const version = await t.call({ method: 'GET', url: '/api/Consumer/Version' });
    expect(version.statusCode).toBe(200);
    expect(version.json()).toMatchObject({ DefaultVersion: '3.3', Demo: true });
    const token = await t.login(...ADMIN);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
