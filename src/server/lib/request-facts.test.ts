import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CONSUMER_NAME_MAX_LENGTH } from '../../shared/contract/index.ts';
import { requestFacts } from './request-facts.ts';

const request = (headers: Record<string, string>) => ({ ip: '203.0.113.7', headers }) as unknown as FastifyRequest;

describe('requestFacts', () => {
  it('reads the address, the consumer and the user agent', () => {
    expect(requestFacts(request({ 'x-tachyon-consumer': 'Helpdesk', 'user-agent': 'curl/8' }))).toEqual({
      clientAddress: '203.0.113.7',
      consumer: 'Helpdesk',
      userAgent: 'curl/8',
    });
  });

  it('keeps at most the contract length of a consumer name, and calls empty headers absent', () => {
    const long = 'c'.repeat(CONSUMER_NAME_MAX_LENGTH + 50);
    expect(requestFacts(request({ 'x-tachyon-consumer': long })).consumer).toBe(
      long.slice(0, CONSUMER_NAME_MAX_LENGTH),
    );
    expect(requestFacts(request({ 'x-tachyon-consumer': '', 'user-agent': '' }))).toMatchObject({
      consumer: null,
      userAgent: null,
    });
  });
});
