import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import { byContainment, requireWithinReach } from '../../domain/accounts/containment.ts';
import { createEnrollmentLink } from '../../domain/devices/devices.ts';
import { hasPermission, loadGrants } from '../../domain/identity/principals.ts';
import {
  accountOfPerson,
  disablePersonDevices,
  getPerson,
  listPeople,
  markReportHandled,
} from '../../domain/people/people.ts';
import {
  issueTemporaryCode,
  revokeTemporaryCode,
  temporaryCodeOwner,
} from '../../domain/two-factor/temporary-codes.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** People: everyone the service knows, one person's page, and what the helpdesk does for them. */
export function peopleRoutes(
  app: FastifyInstance,
  { db, clock, accounts, audit, config, changes, sessions, pushSender }: Services,
): void {
  /** What the audit stream records of an action the caller may take by Contain: whether they took it so. */
  const containmentDetail = (request: FastifyRequest, endpoint: Endpoint): Record<string, boolean> =>
    byContainment(sessionOf(request).principal, endpoint.access) ? { containment: true } : {};

  registerEndpoint(app, endpoints.listPeople, () => listPeople(db));

  registerEndpoint(app, endpoints.getPerson, ({ params, request }) =>
    // The account and its sign-ins are account administration's to read: withheld from Security alone.
    getPerson(
      db,
      clock,
      params.userName,
      hasPermission(sessionOf(request).principal, 'Accounts', 'Read') ? accounts : null,
    ),
  );

  registerEndpoint(app, endpoints.createPersonEnrollmentLink, async ({ params, request }) => {
    const link = await audited(
      audit,
      request,
      {
        action: 'enrollment-link-issued',
        event: {
          details: { for: params.userName, ...containmentDetail(request, endpoints.createPersonEnrollmentLink) },
        },
        after: ({ account }) => ({ entity: { type: 'Account', id: account.id } }),
      },
      async () => {
        const account = await accountOfPerson(db, params.userName);
        if (!account) {
          throw new ProblemError(
            409,
            'no-account',
            'No account',
            `${params.userName} has no account here. A device is enrolled for an account: create one first (Accounts page), or connect the directory.`,
          );
        }
        if (!account.enabled) {
          throw new ProblemError(
            409,
            'account-disabled',
            'Account disabled',
            `${account.userName}'s account is disabled: enable it before enrolling a device for them.`,
          );
        }
        if (account.kind === 'Api') {
          throw new ProblemError(
            409,
            'api-account',
            'API account',
            `${account.userName} is an API account, for scripts and the SDK: it has no devices.`,
          );
        }
        const session = sessionOf(request);
        if (account.id === session.principal.id) await sessions.requireStepUpUnlessFirstFactor(session);
        const grants = await loadGrants(db, account.id);
        // A device of an account administrator's is a second factor of theirs: planting one is account administration.
        if (
          grants.some((grant) => grant.Entity === 'Accounts') &&
          !hasPermission(session.principal, 'Accounts', 'Write')
        ) {
          throw new ProblemError(
            403,
            'accounts-write-required',
            'Only an account administrator may do this',
            `${account.userName} holds Accounts permissions: only someone with Write on Accounts may enrol a device ` +
              `for them. Ask an account administrator, or let ${account.userName} add it from their own sign-in.`,
          );
        }
        const principal = { ...account, grants };
        // PUBLIC_URL, never the request's Host header: a link a phone opens must not point where a header says.
        const link = await createEnrollmentLink(
          { db, clock },
          { principal, origin: config.publicUrl, createdBy: session.principal.userName },
        );
        return { account, link };
      },
    );
    return link.link;
  });

  registerEndpoint(app, endpoints.disablePersonDevices, ({ params, request }) =>
    audited(
      audit,
      request,
      {
        action: 'devices-disabled',
        event: { details: { for: params.userName, ...containmentDetail(request, endpoints.disablePersonDevices) } },
      },
      async () => {
        const { principal } = sessionOf(request);
        const account = await accountOfPerson(db, params.userName);
        if (account) await requireWithinReach(db, principal, endpoints.disablePersonDevices.access, account.id);
        // Without an account, a person's devices are the push users of their name: Contain reaches them too.
        const disabled = await disablePersonDevices(db, clock, params.userName, principal.userName, changes);
        return { Disabled: disabled };
      },
    ),
  );

  registerEndpoint(app, endpoints.issueTemporaryCode, async ({ params, body, request }) => {
    const details = {
      for: params.userName,
      validMinutes: body.ValidMinutes,
      uses: body.Uses,
      ...containmentDetail(request, endpoints.issueTemporaryCode),
    };
    const issued = await audited(
      audit,
      request,
      {
        action: 'temporary-code-issued',
        event: { details },
        after: ({ account, code }) => ({
          entity: { type: 'Account', id: account.id },
          details: { ...details, temporaryCode: code.Id, expires: code.ExpiresUtc },
        }),
      },
      async () => {
        const { principal } = sessionOf(request);
        const account = await accountOfPerson(db, params.userName);
        if (!account) {
          throw new ProblemError(
            409,
            'no-account',
            'No account',
            `${params.userName} has no account here: a temporary code is for a person who signs in here. Create their account first.`,
          );
        }
        if (account.kind === 'Api') {
          throw new ProblemError(
            409,
            'api-account',
            'API account',
            `${account.userName} is an API account: it has no second step, so it takes no temporary code.`,
          );
        }
        await requireWithinReach(db, principal, endpoints.issueTemporaryCode.access, account.id);
        const { code, notice } = await issueTemporaryCode({
          db,
          clock,
          changes,
          hashCost: config.passwordHashCost,
          account,
          request: body,
          issuedBy: principal.userName,
        });
        pushSender?.sendNotice?.(notice.targets, notice.message);
        return { account, code };
      },
    );
    return issued.code;
  });

  registerEndpoint(app, endpoints.revokeTemporaryCode, async ({ params, request }) => {
    await audited(
      audit,
      request,
      {
        action: 'temporary-code-revoked',
        event: { details: { temporaryCode: params.id, ...containmentDetail(request, endpoints.revokeTemporaryCode) } },
      },
      async () => {
        const { principal } = sessionOf(request);
        const owner = await temporaryCodeOwner(db, params.id);
        await requireWithinReach(db, principal, endpoints.revokeTemporaryCode.access, owner.principalId);
        await revokeTemporaryCode(db, clock, params.id, principal.userName);
      },
    );
  });

  registerEndpoint(app, endpoints.markReportHandled, ({ params, request }) =>
    audited(audit, request, { action: 'code-report-handled', event: { details: { report: params.id } } }, () =>
      markReportHandled(db, clock, params.id, sessionOf(request).principal.userName),
    ),
  );
}
