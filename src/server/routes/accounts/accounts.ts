import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import type { AuditAction } from '../../audit/audit-event.ts';
import { audited } from '../../audit/request-audit.ts';
import { byContainment, requireWithinReach } from '../../domain/accounts/containment.ts';
import { listReportedCodes } from '../../domain/two-factor/code-reports.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { signInContext } from './sign-in-context.ts';

/** Account administration: thin routes over the account service. */
export function accountRoutes(app: FastifyInstance, { accounts, db, audit, sessions }: Services): void {
  /** An account change, recorded in the audit stream with the account it was made to and what changed. */
  const change = <T>(request: FastifyRequest, action: AuditAction, id: number, what: string, work: () => Promise<T>) =>
    audited(audit, request, { action, event: { entity: { type: 'Account', id }, details: { change: what } } }, work);
  /** A change the helpdesk may make by Contain: refused for an account out of its reach, and recorded as containment. */
  const containment = <T>(
    request: FastifyRequest,
    endpoint: Endpoint,
    action: AuditAction,
    id: number,
    details: Record<string, string>,
    work: () => Promise<T>,
  ) => {
    const { principal } = sessionOf(request);
    const event = {
      entity: { type: 'Account' as const, id },
      details: { ...details, ...(byContainment(principal, endpoint.access) ? { containment: true } : {}) },
    };
    return audited(audit, request, { action, event }, async () => {
      await requireWithinReach(db, principal, endpoint.access, id);
      return work();
    });
  };
  /** Every session of an account ended at once, by its person or an administrator. */
  const signOutEverywhere = (request: FastifyRequest, id: number) =>
    containment(request, endpoints.signOutAccount, 'session-ended', id, { cause: 'signed-out-everywhere' }, () =>
      accounts.signOutEverywhere(id, sessionOf(request).principal),
    );
  registerEndpoint(app, endpoints.listAccounts, () => accounts.list());
  registerEndpoint(app, endpoints.createAccount, ({ body, request }) => {
    // The helpdesk creates a person's account to enrol a phone for them, and never one holding a permission.
    if (
      byContainment(sessionOf(request).principal, endpoints.createAccount.access) &&
      (body.Kind !== 'Person' || body.Permissions.Security.length > 0 || body.Permissions.Accounts.length > 0)
    ) {
      throw new ProblemError(
        403,
        'forbidden',
        'Permission required',
        'With Contain on Accounts you create a person’s account with no permissions; anything more needs Write on Accounts.',
        { extensions: { entity: 'Accounts', permission: 'Write' } },
      );
    }
    return audited(
      audit,
      request,
      {
        action: body.Kind === 'Api' ? 'api-account-created' : 'account-created',
        // The account made is told by its write (noteAuditFacts).
        event: { details: { accountKind: body.Kind } },
      },
      () => accounts.create(body, sessionOf(request).principal),
    );
  });
  registerEndpoint(app, endpoints.accountsHistory, () => accounts.history(null));
  registerEndpoint(app, endpoints.reportedCodes, () => listReportedCodes(db));
  registerEndpoint(app, endpoints.changeOwnPassword, async ({ body, request }) => {
    const session = sessionOf(request);
    await change(request, 'account-changed', session.principal.id, 'own-password', () =>
      accounts.changeOwnPassword(
        session.principal,
        body.OldPassword,
        body.NewPassword,
        session.tokenHash,
        signInContext(request),
      ),
    );
  });
  registerEndpoint(app, endpoints.signOutOwnSessions, async ({ request }) => {
    const id = sessionOf(request).principal.id;
    await audited(
      audit,
      request,
      {
        action: 'session-ended',
        event: { entity: { type: 'Account', id }, details: { cause: 'signed-out-everywhere' } },
      },
      () => accounts.signOutEverywhere(id, sessionOf(request).principal),
    );
  });
  registerEndpoint(app, endpoints.getAccount, ({ params }) => accounts.get(params.id));
  registerEndpoint(app, endpoints.accountHistory, ({ params }) => accounts.history(params.id));
  registerEndpoint(app, endpoints.updateAccountPermissions, ({ params, body, request }) =>
    change(request, 'account-changed', params.id, 'permissions', () =>
      accounts.setPermissions(params.id, body.Permissions, sessionOf(request).principal),
    ),
  );
  registerEndpoint(app, endpoints.updateAccountEmail, ({ params, body, request }) =>
    change(request, 'account-changed', params.id, 'email', () =>
      accounts.setEmail(params.id, body.Email, sessionOf(request).principal),
    ),
  );
  registerEndpoint(app, endpoints.updateAccountEnabled, ({ params, body, request }) => {
    // Enabling is a step-up action (an account brought back signs in again); disabling never waits for one.
    if (body.Enabled) sessions.requireStepUp(sessionOf(request));
    return containment(
      request,
      endpoints.updateAccountEnabled,
      body.Enabled ? 'account-changed' : 'account-disabled',
      params.id,
      { change: body.Enabled ? 'enabled' : 'disabled' },
      () => accounts.setEnabled(params.id, body.Enabled, sessionOf(request).principal),
    );
  });
  registerEndpoint(app, endpoints.resetAccountPassword, ({ params, body, request }) =>
    change(request, 'account-password-reset', params.id, 'password-reset', () =>
      accounts.resetPassword(params.id, body.Password, sessionOf(request).principal),
    ),
  );
  registerEndpoint(app, endpoints.rotateAccountSecret, ({ params, request }) =>
    change(request, 'api-account-secret-rotated', params.id, 'secret-rotated', () =>
      accounts.rotateSecret(params.id, sessionOf(request).principal),
    ),
  );
  registerEndpoint(app, endpoints.signOutAccount, async ({ params, request }) => {
    await signOutEverywhere(request, params.id);
    return accounts.get(params.id);
  });
}
