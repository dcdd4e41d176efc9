import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import { hasPermission } from '../../domain/accounts/principals.ts';
import { createEnrollmentLink } from '../../domain/devices/devices.ts';
import { accountOfPerson, getPerson, listPeople, markReportHandled } from '../../domain/people/people.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** People: everyone the service knows, one person's page, and what the helpdesk does for them. */
export function peopleRoutes(app: FastifyInstance, { db, clock, accounts, audit, config }: Services): void {
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

  registerEndpoint(app, endpoints.createPersonEnrollmentLink, async ({ params, request, reply }) => {
    const link = await audited(
      audit,
      request,
      {
        action: 'enrollment-link-issued',
        event: { details: { for: params.userName } },
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
        const principal = { ...account, grants: [] };
        // PUBLIC_URL, never the request's Host header: a link a phone opens must not point where a header says.
        return {
          account,
          link: await createEnrollmentLink(
            db,
            clock,
            principal,
            config.publicUrl,
            sessionOf(request).principal.userName,
          ),
        };
      },
    );
    return reply.code(201).send(link.link);
  });

  registerEndpoint(app, endpoints.markReportHandled, ({ params, request }) =>
    audited(audit, request, { action: 'code-report-handled', event: { details: { report: params.id } } }, () =>
      markReportHandled(db, clock, params.id, sessionOf(request).principal.userName),
    ),
  );
}
