import { describe, expect, it } from 'vitest';
import { ADMIN, useTestApp } from '../../test/harness.ts';

/** The CSP header as directive name → sources. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

describe('security headers on every response (SPEC §3 "Errors and limits")', () => {
  const { t, tokens } = useTestApp({
    config: { connectSources: ['https://tachyon.example.com'] },
    signIn: { admin: ADMIN },
    per: 'file',
  });

  const samples = async () => {
    const list = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin });
    return {
      'JSON 200': list,
      '304': await t.call({
        method: 'GET',
        url: '/api/Consumer/PushMessageUsers',
        token: tokens.admin,
        headers: { 'if-none-match': String(list.headers.etag) },
      }),
      '204': await t.call({ method: 'POST', url: '/api/Demo/Reset', token: tokens.admin }),
      '400': await t.call({ method: 'GET', url: '/api/Consumer/Version', version: 'nope' }),
      '401': await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers' }),
      '404 route': await t.call({ method: 'GET', url: '/api/Nope' }),
      '404 page': await t.call({ method: 'GET', url: '/nope' }),
      '415': await t.call({
        method: 'POST',
        url: '/api/Consumer/Authentication',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      }),
    };
  };

  it('sends a CSP allowing only the own origin for scripts, no inline script, no framing', async () => {
    for (const [name, response] of Object.entries(await samples())) {
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('default-src'), name).toEqual(["'self'"]);
      expect(csp.get('script-src'), name).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), name).toEqual(["'none'"]);
      expect(csp.get('object-src'), name).toEqual(["'none'"]);
      expect(csp.get('base-uri'), name).toEqual(["'self'"]);
      for (const [directive, sources] of csp) {
        if (directive.startsWith('script') || directive === 'default-src') {
          expect(sources.join(' '), `${name}: ${directive}`).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
        }
      }
    }
  });

  it('lets the dashboard connect only to its own origin and the configured servers', async () => {
    const response = await t.call({ method: 'GET', url: '/api/Consumer/Version' });
    expect(directives(response.headers['content-security-policy']).get('connect-src')).toEqual([
      "'self'",
      'https://tachyon.example.com',
    ]);
  });

  it('sends nosniff, a Referrer-Policy and frame denial', async () => {
    for (const [name, response] of Object.entries(await samples())) {
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      expect(response.headers['referrer-policy'], name).toBe('no-referrer');
      expect(response.headers['x-frame-options'], name).toBe('DENY');
      expect(response.headers['x-powered-by'], name).toBeUndefined();
    }
  });

  it('keeps headers that only a rendered document reads off API answers, and sends them with pages', async () => {
    const documentOnly = [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    for (const [name, response] of Object.entries(await samples())) {
      const isPage = name === '404 page';
      for (const header of documentOnly)
        expect(response.headers[header] !== undefined, `${name}: ${header}`).toBe(isPage);
      // What guards the data itself is on both.
      expect(response.headers['cross-origin-resource-policy'], name).toBe('same-origin');
      // Over plain HTTP a browser ignores it: it comes only over HTTPS (tls.test.ts, https-required.test.ts).
      expect(response.headers['strict-transport-security'], name).toBeUndefined();
    }
    const upperCase = await t.call({ method: 'GET', url: '/API/Consumer/Version' });
    expect(upperCase.statusCode).toBe(200);
    expect(upperCase.headers['x-dns-prefetch-control']).toBeUndefined();
  });

  it('accepts the X-Tachyon-Consumer header without requiring it', async () => {
    const withHeader = await t.call({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers',
      token: tokens.admin,
      headers: { 'x-tachyon-consumer': 'Dashboard' },
    });
    const without = await t.call({ method: 'GET', url: '/api/Consumer/PushMessageUsers', token: tokens.admin });
    expect(withHeader.statusCode).toBe(200);
    expect(without.statusCode).toBe(200);
  });
});
