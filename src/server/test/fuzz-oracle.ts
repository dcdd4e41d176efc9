import type { LightMyRequestResponse } from 'fastify';
import { Problem } from '../../shared/contract/index.ts';

/**
 * The fuzz tests' oracle (src/server/reliability/fuzz.test.ts), for every answer: no 5xx; every error is
 * application/problem+json whose detail says something; no stack frame, file path, SQL text or internal error name
 * ever appears (unless the request itself sent it and the answer merely echoes it).
 */

export const LEAKS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'a stack frame',
    /\n\s+at |\bat (?:async )?[\w$.<>[\] ]+ \((?:file:|node:|\/)|\bat (?:file:|node:internal|\/[\w.-]+\/)/,
  ],
  ['a file path', /(?:\/(?:work|home|usr|tmp|src|dist|node_modules)\/[\w./-]+)|\b[\w-]+\.(?:ts|js|mjs|cjs):\d+/],
  [
    'SQL text',
    // pg_dump is named on purpose: the backup endpoint's 409 on PostgreSQL tells the operator the command to run.
    /\b(?:select|insert|update|delete)\b[^.]{0,80}?\b(?:from|into|set|where)\b|SQLITE_|\bsqlite\b|syntax error at|relation "|violates|duplicate key|out of range for type|\bpg_(?!dump\b)\w+|kysely/i,
  ],
  [
    'an internal error name',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|AssertionError)\b|FST_ERR_\w+|\bERR_[A-Z_]{4,}/,
  ],
];

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export const stats = { requests: 0, byStatus: new Map<number, number>() };

export function requestText(sent: Sent): string {
  let decoded = sent.url;
  try {
    decoded = decodeURIComponent(sent.url);
  } catch {
    // keep the raw URL
  }
  return [sent.method, sent.url, decoded, JSON.stringify(sent.headers), sent.payload ?? ''].join('\n');
}

/** Throws (so fast-check shrinks and reports the request) when an answer breaks a rule. */
export function checkAnswer(sent: Sent, response: LightMyRequestResponse): void {
  stats.requests += 1;
  stats.byStatus.set(response.statusCode, (stats.byStatus.get(response.statusCode) ?? 0) + 1);
  const shown = () =>
    `${sent.method} ${sent.url.slice(0, 200)} ${JSON.stringify(sent.headers).slice(0, 300)} ${String(sent.payload).slice(0, 300)}\n→ ${response.statusCode} ${String(response.headers['content-type'])} ${response.body.slice(0, 500)}`;
  if (response.statusCode >= 500) throw new Error(`5xx answer: ${shown()}`);
  if (response.statusCode < 400) return;

  const contentType = String(response.headers['content-type'] ?? '');
  if (!/^application\/problem\+json(?:;|$)/.test(contentType)) throw new Error(`error without a problem: ${shown()}`);
  if (sent.method === 'HEAD') return; // a HEAD answer has no body by definition
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`problem body is not JSON: ${shown()}`);
  }
  const problem = Problem.safeParse(body);
  if (!problem.success) throw new Error(`problem body does not match the contract: ${shown()}`);
  const { detail, status, title } = problem.data;
  if (status !== response.statusCode) throw new Error(`problem status differs from the HTTP status: ${shown()}`);
  if (!detail || detail.trim().length < 10 || detail === title)
    throw new Error(`problem without a useful detail: ${shown()}`);

  const echoed = requestText(sent);
  for (const [what, pattern] of LEAKS) {
    const match = pattern.exec(response.body);
    if (match && !echoed.includes(match[0])) throw new Error(`answer leaks ${what} ("${match[0]}"): ${shown()}`);
  }
}
