import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import { audited } from '../../audit/request-audit.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';

/** Alert destinations (Settings → Alerts) and their delivery logs: thin routes over the alert service. */
export function alertRoutes(app: FastifyInstance, { alerts, audit }: Services): void {
  const { destinations, outbox } = alerts;
  const entity = (id: number) => ({ entity: { type: 'AlertDestination', id } as const });

  registerEndpoint(app, endpoints.listAlertDestinations, () => destinations.list());

  registerEndpoint(app, endpoints.createAlertDestination, ({ body, request }) =>
    audited(
      audit,
      request,
      {
        action: 'alert-destination-created',
        event: { details: { channel: body.Channel, events: body.Events.join(' ') } },
        after: (made) => entity(made.Id),
      },
      () => destinations.create(body, sessionOf(request).principal),
    ),
  );

  registerEndpoint(app, endpoints.updateAlertDestination, ({ params, body, request }) =>
    audited(
      audit,
      request,
      {
        action: 'alert-destination-changed',
        event: { ...entity(params.id), details: { events: body.Events.join(' ') } },
      },
      () => destinations.update(params.id, body),
    ),
  );

  registerEndpoint(app, endpoints.deleteAlertDestination, async ({ params, request }) => {
    await audited(audit, request, { action: 'alert-destination-removed', event: entity(params.id) }, () =>
      destinations.remove(params.id),
    );
  });

  registerEndpoint(app, endpoints.rotateAlertSecret, ({ params, request }) =>
    audited(audit, request, { action: 'alert-secret-rotated', event: entity(params.id) }, () =>
      destinations.rotateSecret(params.id),
    ),
  );

  registerEndpoint(app, endpoints.listAlertDeliveries, ({ params }) => outbox.log(params.id));

  registerEndpoint(app, endpoints.resendAlertDelivery, async ({ params }) => {
    const delivery = await outbox.resend(params.id);
    alerts.wake();
    return delivery;
  });
}
