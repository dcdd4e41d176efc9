import { compileErrors, validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoints } from '../../shared/contract/index.ts';
import { openApiPath } from '../../shared/contract/openapi.ts';
import { useTestApp } from '../test/harness.ts';
import { mismatch } from '../test/openapi-conformance.ts';

type Operation = {
  security: unknown[];
  responses: Record<string, unknown>;
  'x-api-versions': string[];
  'x-access': unknown;
  'x-step-up'?: true | { when: string };
  deprecated?: boolean;
};
type Document = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation> & { servers?: Array<{ url: string }> }>;
  components: { securitySchemes: Record<string, unknown>; parameters: Record<string, unknown> };
};

describe('the OpenAPI document (SPEC §3 "Running it")', () => {
  const { t } = useTestApp({ per: 'file' });
  let document: Document;
  beforeAll(async () => {
    const response = await t.call({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json<Document>();
  });

  it('passes a standard OpenAPI 3.1 validator', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every catalogue endpoint with its access rule and versions, once for both prefixes', () => {
    expect(document.servers.map((server) => server.url)).toEqual(['/api', '/']);
    for (const endpoint of Object.values(endpoints) as Endpoint[]) {
      const path = document.paths[openApiPath(endpoint.path)];
      const operation = path?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      if (!operation) continue;
      expect(operation['x-access']).toEqual(endpoint.access);
      expect(operation['x-api-versions'].length).toBeGreaterThan(0);
      expect(operation.security.length === 0).toBe(endpoint.access.kind === 'anonymous');
      expect(Boolean(operation.deprecated)).toBe(endpoint.obsolete !== null);
      // The Consumer interface is at both base URLs; the rest only under /api.
      const rootToo = /^\/Consumer/i.test(endpoint.path);
      expect(path?.servers, endpoint.path).toEqual(rootToo ? undefined : [{ url: '/api' }]);
    }
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'basicCredentials',
      'bearerToken',
      'deviceToken',
      'tachyonToken',
    ]);
    expect(document.components.parameters.ApiVersion).toMatchObject({ in: 'header', name: 'Api-Version' });
  });

  it('marks every step-up action with x-step-up, from the catalogue: always, or in the case it names', () => {
    const marked = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        typeof operation === 'object' && operation !== null && 'x-step-up' in operation
          ? [[`${method.toUpperCase()} ${path}`, operation['x-step-up'] === true ? 'always' : 'when']]
          : [],
      ),
    );
    expect(Object.fromEntries(marked)).toEqual({
      'POST /Consumer/Authentication/AuthorizeDevice': 'when',
      'PUT /Consumer/PushMessageUsers': 'when',
      'POST /Admin/Accounts': 'always',
      'PUT /Admin/Accounts/{id}/Permissions': 'always',
      'PUT /Admin/Accounts/{id}/Enabled': 'when',
      'POST /Admin/Accounts/{id}/Password': 'always',
      'GET /Admin/Backup': 'always',
      'POST /Admin/Accounts/{id}/Secret': 'always',
      'POST /Admin/Accounts/{id}/SignOut': 'always',
      'POST /People/{userName}/EnrollmentLinks': 'when',
      'POST /Device/EnrollmentLinks': 'when',
      'POST /Admin/Accounts/{id}/SignInMethods/Reset': 'always',
      'POST /People/{userName}/TemporaryCodes': 'always',
      'POST /Admin/Alerts/Destinations': 'always',
      'PUT /Admin/Alerts/Destinations/{id}': 'always',
      'DELETE /Admin/Alerts/Destinations/{id}': 'always',
      'POST /Admin/Alerts/Destinations/{id}/Secret': 'always',
    });
    for (const endpoint of Object.values(endpoints) as Endpoint[]) {
      const operation = document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation?.['x-step-up'], endpoint.path).toEqual(endpoint.stepUp);
    }
  });

  it('the harness check catches answers that do not match it', () => {
    const wrong = mismatch({
      method: 'GET',
      catalogPath: '/Consumer/PushMessageUsers/:id',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ Id: 1, DeviceType: 'iOS' }),
    });
    expect(wrong).toMatch(/must have required property/);
    expect(
      mismatch({
        method: 'DELETE',
        catalogPath: '/Consumer/Authentication/Session',
        status: 200,
        contentType: 'application/json',
        body: '{}',
      }),
    ).toMatch(/status not documented/);
    expect(
      mismatch({
        method: 'GET',
        catalogPath: null,
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({ title: 'no type' }),
      }),
    ).toMatch(/must have required property/);
    expect(
      mismatch({
        method: 'GET',
        catalogPath: '/Consumer/Version',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ DefaultVersion: '3.3', SupportedVersions: [] }),
      }),
    ).toBeNull();
  });
});

describe('the OpenAPI document with demo mode off', () => {
  const { t } = useTestApp({ config: { demo: false }, per: 'file' });

  it('lists no demo endpoint nor a demo schema, and still every other endpoint', async () => {
    const response = await t.call({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<Document & { components: { schemas: Record<string, unknown> } }>();
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    const listed = Object.keys(document.paths);
    expect(listed.filter((path) => /^\/Demo\//i.test(path))).toEqual([]);
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('Demo'))).toEqual([]);
    for (const endpoint of Object.values(endpoints) as Endpoint[]) {
      expect(listed.includes(openApiPath(endpoint.path)), endpoint.path).toBe(!endpoint.demoOnly);
    }
    // The device app's endpoints are there, with the device credential as their security.
    expect(document.paths['/Device/Pushes']?.get?.security).toEqual([{ deviceToken: [] }]);
    expect(document.paths['/Device/Enrollments']?.post?.security).toContainEqual({});
  });
});

describe('the API reference page (/api/docs)', () => {
  const { t } = useTestApp({ per: 'file' });

  it('is served from this origin under the CSP, with its scripts and styles', async () => {
    const page = await t.call({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source, 'no other origin').toMatch(/^\/api\/docs\//);
      const asset = await t.call({ method: 'GET', url: source });
      expect(asset.statusCode, source).toBe(200);
      expect(asset.body.length, source).toBeGreaterThan(10);
    }
    // No inline script: the CSP would refuse it.
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
  });
});
