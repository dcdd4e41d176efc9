import { describe, expect, it } from 'vitest';
import {
  availability,
  type Endpoint,
  endpointPath,
  endpoints,
  tokenEndpointFor,
  unavailableReason,
} from './endpoints.ts';
import { SUPPORTED_VERSIONS } from './versions.ts';

const seedEndpoints = (Object.values(endpoints) as Endpoint[]).flatMap((endpoint) =>
  endpoint.seedNumber === null ? [] : [{ ...endpoint, seedNumber: endpoint.seedNumber }],
);
const bySeedNumber = (n: number) => {
  const endpoint = seedEndpoints.find((candidate) => candidate.seedNumber === n);
  if (!endpoint) throw new Error(`no endpoint #${n}`);
  return endpoint;
};

describe('endpoint catalogue (seed §4)', () => {
  it('has every seed endpoint #1-#10 once, with the seed method and path', () => {
    const table = seedEndpoints
      .map((endpoint) => [endpoint.seedNumber, endpoint.method, endpoint.path] as const)
      .sort(([a], [b]) => a - b);
    expect(table).toEqual([
      [1, 'POST', '/Consumer/Authentication'],
      [2, 'POST', '/ConsumerAuthentication/Token'],
      [3, 'POST', '/Consumer/Authentication/Instruction/Token'],
      [4, 'POST', '/Consumer/Authentication/ScheduledInstruction/Token'],
      [5, 'POST', '/Consumer/Authentication/AuthorizeDevice'],
      [6, 'GET', '/Consumer/Authentication/AuthorizationRequests'],
      [7, 'GET', '/Consumer/Authentication/AuthorizationRequests/:id'],
      [8, 'GET', '/Consumer/PushMessageUsers'],
      [9, 'GET', '/Consumer/PushMessageUsers/:id'],
      [10, 'PUT', '/Consumer/PushMessageUsers'],
    ]);
  });

  it('serves #2 also where the published client calls it', () => {
    expect(endpoints.submitObsoleteToken.aliases).toEqual(['/Consumer/Authentication/Token']);
  });

  it('guards #5/#10 with Security Write and #6-#9 with Security Read (seed §5.4)', () => {
    for (const n of [5, 10]) {
      expect(bySeedNumber(n).access).toEqual({ kind: 'permission', entity: 'Security', permission: 'Write' });
    }
    for (const n of [6, 7, 8, 9]) {
      expect(bySeedNumber(n).access).toEqual({ kind: 'permission', entity: 'Security', permission: 'Read' });
    }
    expect(bySeedNumber(1).access).toEqual({ kind: 'anonymous' });
    for (const n of [2, 3, 4]) expect(bySeedNumber(n).access).toEqual({ kind: 'session' });
  });

  it('fills path parameters', () => {
    expect(endpointPath(endpoints.getPushMessageUser, { id: 42 })).toBe('/Consumer/PushMessageUsers/42');
    expect(endpointPath(endpoints.getAuthorizationRequest, { id: 'a b' })).toBe(
      '/Consumer/Authentication/AuthorizationRequests/a%20b',
    );
  });
});

describe('availability() (seed §9)', () => {
  // Rows: seed endpoint number; columns: 3.0, 3.1, 3.2, 3.3, 4.0. A = available, O = available but obsolete, - = absent.
  const expected: Record<number, string> = {
    1: 'A A A A A',
    2: 'A O O O O',
    3: '- A A A A',
    4: '- A A A A',
    5: 'A A A A -',
    6: 'A A A A -',
    7: 'A A A A -',
    8: 'A A A A -',
    9: 'A A A A -',
    10: 'A A A A -',
  };

  for (const [n, row] of Object.entries(expected)) {
    it(`#${n}: ${row}`, () => {
      const endpoint = bySeedNumber(Number(n));
      const actual = SUPPORTED_VERSIONS.map((version) => {
        const { available, obsolete } = availability(endpoint, version);
        return available ? (obsolete ? 'O' : 'A') : '-';
      }).join(' ');
      expect(actual).toBe(row);
    });
  }

  it('lists the versions that have the endpoint', () => {
    expect(availability(endpoints.authorizeDevice, '4.0').versions).toEqual(['3.0', '3.1', '3.2', '3.3']);
    expect(availability(endpoints.submitInstructionToken, '3.0').versions).toEqual(['3.1', '3.2', '3.3', '4.0']);
    expect(availability(endpoints.login, '3.0').versions).toEqual([...SUPPORTED_VERSIONS]);
  });

  it('keeps the extensions in every version', () => {
    for (const endpoint of [endpoints.version, endpoints.getSession, endpoints.endSession, endpoints.demoReset]) {
      for (const version of SUPPORTED_VERSIONS) expect(availability(endpoint, version).available).toBe(true);
    }
  });

  it('explains why an endpoint is missing', () => {
    expect(unavailableReason(endpoints.listPushMessageUsers, '4.0')).toBe('removed in API 4.0');
    expect(unavailableReason(endpoints.submitScheduledInstructionToken, '3.0')).toBe('added in API 3.1');
    expect(unavailableReason(endpoints.listPushMessageUsers, '3.3')).toBeNull();
  });

  it('sends an instruction token to #3 from 3.1 on and to the obsolete #2 before; scheduled ones to #4', () => {
    expect(tokenEndpointFor('instruction', '3.0')).toBe(endpoints.submitObsoleteToken);
    for (const version of ['3.1', '3.2', '3.3', '4.0'] as const) {
      expect(tokenEndpointFor('instruction', version)).toBe(endpoints.submitInstructionToken);
      expect(tokenEndpointFor('scheduled', version)).toBe(endpoints.submitScheduledInstructionToken);
    }
  });
});
