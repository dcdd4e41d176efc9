import type { FastifyRequest } from 'fastify';
import { CONSUMER_HEADER, CONSUMER_NAME_MAX_LENGTH } from '../../shared/contract/index.ts';

/** What a request says of where it comes from, read in one place for the log, the account history and the audit. */
export interface RequestFacts {
  /** The client's address (the nearest untrusted hop behind a trusted proxy). */
  clientAddress: string;
  /** X-Tachyon-Consumer, at most CONSUMER_NAME_MAX_LENGTH characters; null when absent or empty. */
  consumer: string | null;
  /** The client's User-Agent; null when absent or empty. */
  userAgent: string | null;
}

const textHeader = (value: string | string[] | undefined): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

export function requestFacts(request: FastifyRequest): RequestFacts {
  const consumer = textHeader(request.headers[CONSUMER_HEADER.toLowerCase()]);
  return {
    clientAddress: request.ip,
    consumer: consumer === null ? null : consumer.slice(0, CONSUMER_NAME_MAX_LENGTH),
    userAgent: textHeader(request.headers['user-agent']),
  };
}
