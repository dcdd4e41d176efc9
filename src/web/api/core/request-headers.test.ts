import { describe, expect, it } from 'vitest';
import { requestHeaders } from './request-headers.ts';

describe('requestHeaders', () => {
  it('sends a session token in both the Bearer and the platform header', () => {
    expect(
      requestHeaders({ accept: 'text/event-stream', version: '3.3', consumer: 'Desk', credential: { session: 't' } }),
    ).toEqual({
      Accept: 'text/event-stream',
      'Api-Version': '3.3',
      'X-Tachyon-Consumer': 'Desk',
      Authorization: 'Bearer t',
      'X-Tachyon-Authenticate': 't',
    });
  });

  it("sends a device's credential in its own scheme, and marks background requests", () => {
    const headers = requestHeaders({
      accept: 'application/json',
      version: '3.3',
      consumer: 'Device app',
      credential: { device: 'd' },
      background: true,
    });
    expect(headers.Authorization).toBe('Device d');
    expect(headers['X-Tachyon-Authenticate']).toBeUndefined();
    expect(headers['X-Tachyon-Background']).toBe('1');
  });
});
