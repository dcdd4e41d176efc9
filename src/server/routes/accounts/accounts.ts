import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import type { AuditAction } from '../../audit/audit-event.ts';
import { audited } from '../../audit/request-audit.ts';
import { listReportedCodes } from '../../domain/two-factor/code-reports.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { signInContext } from './sign-in-context.ts';

/** Account administration: thin routes over the account service. */
export function accountRoutes(app: FastifyInstance, { accounts, db, audit, sessions }: Services): void {
  /** An account change, recorded in the audit stream with the account it was made to and what changed. */
  const change = <T>(request: FastifyRequest, action: AuditAction, id: number, what: string, work: () => Promise<T>) =>
    audited(audit, request, { action, event: { entity: { type: 'Account', id }, details: { change: what } } }, work);
  /** Every session of an account ended at once, by its person or an administrator. */
  const signOutEverywhere = (request: FastifyRequest, id: number) =>
    audited(
      audit,
      request,
      {
        action: 'session-ended',
        event: { entity: { type: 'Account', id }, details: { cause: 'signed-out-everywhere' } },
      },
      () => accounts.signOutEverywhere(id, sessionOf(request).principal),
    );
  registerEndpoint(app, endpoints.listAccounts, () => accounts.list());
  registerEndpoint(app, endpoints.createAccount, ({ body, request }) =>
    audited(
      audit,
      request,
      {
        action: body.Kind === 'Api' ? 'api-account-created' : 'account-created',
        after: (account) => ({ entity: { type: 'Account', id: account.Id }, details: { accountKind: body.Kind } }),
      },
      () => accounts.create(body, sessionOf(request).principal),
    ),
  );
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
    await signOutEverywhere(request, sessionOf(request).principal.id);
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
    return change(
      request,
      body.Enabled ? 'account-changed' : 'account-disabled',
      params.id,
      body.Enabled ? 'enabled' : 'disabled',
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
