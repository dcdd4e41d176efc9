import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../shared/contract/index.ts';
import { listReportedCodes } from '../domain/code-reports.ts';
import { registerEndpoint } from '../http/endpoint-route.ts';
import type { Services } from './services.ts';
import { sessionOf } from './session-of.ts';
import { signInContext } from './sign-in-context.ts';

/** Account administration: thin routes over the account service. */
export function accountRoutes(app: FastifyInstance, { accounts, db }: Services): void {
  registerEndpoint(app, endpoints.listAccounts, () => accounts.list());
  registerEndpoint(app, endpoints.createAccount, async ({ body, request, reply }) =>
    reply.code(201).send(await accounts.create(body, sessionOf(request).principal)),
  );
  registerEndpoint(app, endpoints.accountsHistory, () => accounts.history(null));
  registerEndpoint(app, endpoints.reportedCodes, () => listReportedCodes(db));
  registerEndpoint(app, endpoints.changeOwnPassword, async ({ body, request, reply }) => {
    const session = sessionOf(request);
    await accounts.changeOwnPassword(
      session.principal,
      body.OldPassword,
      body.NewPassword,
      session.tokenHash,
      signInContext(request),
    );
    return reply.code(204).send();
  });
  registerEndpoint(app, endpoints.signOutOwnSessions, async ({ request, reply }) => {
    const { principal } = sessionOf(request);
    await accounts.signOutEverywhere(principal.id, principal);
    return reply.code(204).send();
  });
  registerEndpoint(app, endpoints.getAccount, ({ params }) => accounts.get(params.id));
  registerEndpoint(app, endpoints.accountHistory, ({ params }) => accounts.history(params.id));
  registerEndpoint(app, endpoints.updateAccountPermissions, ({ params, body, request }) =>
    accounts.setPermissions(params.id, body.Permissions, sessionOf(request).principal),
  );
  registerEndpoint(app, endpoints.updateAccountEmail, ({ params, body, request }) =>
    accounts.setEmail(params.id, body.Email, sessionOf(request).principal),
  );
  registerEndpoint(app, endpoints.updateAccountEnabled, ({ params, body, request }) =>
    accounts.setEnabled(params.id, body.Enabled, sessionOf(request).principal),
  );
  registerEndpoint(app, endpoints.resetAccountPassword, ({ params, body, request }) =>
    accounts.resetPassword(params.id, body.Password, sessionOf(request).principal),
  );
  registerEndpoint(app, endpoints.signOutAccount, async ({ params, request }) => {
    await accounts.signOutEverywhere(params.id, sessionOf(request).principal);
    return accounts.get(params.id);
  });
}
