import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../lib/problem-error.ts';
import { requestFacts } from '../lib/request-facts.ts';
import type { AuditAction, AuditEvent } from './audit-event.ts';
import type { AuditLog } from './audit-log.ts';

/** Who made a request and from where, as an audit event names them. */
export function requestActor(request: FastifyRequest): Pick<AuditEvent, 'userName' | 'sourceIp' | 'userAgent'> {
  const { clientAddress, userAgent } = requestFacts(request);
  return { userName: request.session?.principal.userName ?? null, sourceIp: clientAddress, userAgent };
}

/** The code a failed action gets in `event.reason`: the problem kind its caller was answered. */
export function reasonOf(error: unknown): string {
  return error instanceof ProblemError ? error.kind : 'internal';
}

export interface AuditedAction<T> {
  action: AuditAction;
  /** The action recorded when it fails, when that has a name of its own (token-refused). */
  failureAction?: AuditAction;
  /** Facts known before it runs: the entity acted on, the name typed at a sign-in. */
  event?: Omit<AuditEvent, 'action' | 'outcome' | 'reason'>;
  /** Facts its result adds (the entity it created). */
  after?: (result: T) => Omit<AuditEvent, 'action' | 'outcome' | 'reason'>;
}

/**
 * Runs what a request asked for and records how it went: success, or failure with its reason code (and the error goes
 * on to the caller unchanged). What the event causes that must outlive a crash (the alerts' outbox rows) is written in
 * the transaction of the action's first write, so it commits with the change or not at all; an event no write carried
 * is written before the answer, in a transaction of its own. Neither waits for any other request's.
 */
export async function audited<T>(
  audit: AuditLog,
  request: FastifyRequest,
  what: AuditedAction<T>,
  work: () => Promise<T>,
): Promise<T> {
  const base = { ...requestActor(request), ...stripUndefined(what.event ?? {}) };
  const outcome = await audit.change({ ...base, action: what.action, outcome: 'success' }, work);
  if (!outcome.ok) {
    const action = what.failureAction ?? what.action;
    await audit.record({ ...base, action, outcome: 'failure', reason: reasonOf(outcome.error) });
    throw outcome.error;
  }
  const after = stripUndefined(what.after?.(outcome.value) ?? {});
  await audit.record(
    { ...base, ...stripUndefined(outcome.noted), ...after, action: what.action, outcome: 'success' },
    outcome.carried,
  );
  return outcome.value;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
