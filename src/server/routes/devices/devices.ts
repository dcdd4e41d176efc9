import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../../shared/contract/index.ts';
import type { AuditEvent } from '../../audit/audit-event.ts';
import { audited } from '../../audit/request-audit.ts';
import { listDeviceNotices } from '../../domain/delivery/device-notices.ts';
import { listDevicePushes } from '../../domain/devices/device-inbox.ts';
import { reportDeviceNotice } from '../../domain/devices/device-notice-reports.ts';
import {
  type AuthenticatedDevice,
  clearPushSubscription,
  createEnrollmentLink,
  deviceState,
  type Enroller,
  enrollDevice,
  MAX_ENROLLMENTS_PER_HOUR,
  removeDevice,
  requireActiveDevice,
  setPushSubscription,
} from '../../domain/devices/devices.ts';
import { reportCode } from '../../domain/two-factor/code-reports.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { requestFacts } from '../../lib/request-facts.ts';
import { pushKeyOf } from '../../push/vapid-keys.ts';
import type { Services } from '../services.ts';
import { sessionOf } from '../session-of.ts';
import { deviceEventRoutes } from './device-events.ts';
import { deviceOf } from './device-of.ts';

/** What an audit event says of a request a device made: its person acted, on `entity`, through that device. */
function deviceActing(device: AuthenticatedDevice, entity: AuditEvent['entity']) {
  return { userName: device.userName, entity, details: { deviceId: device.id } };
}

/** The device the request names, refused (403) unless it is approved and Active: see requireActiveDevice. */
function activeDeviceOf(request: FastifyRequest, options: { waitingToo?: boolean } = {}): AuthenticatedDevice {
  const device = deviceOf(request);
  requireActiveDevice(device, options);
  return device;
}

/** Enrolment links one person may make in an hour, in this process: as many as they may enrol devices. */
const ENROLLMENT_LINKS_PER_HOUR = MAX_ENROLLMENTS_PER_HOUR;

/** Enrolment attempts per person (signed in) or per address (holding a code) per minute, in this process. */
const ENROLLMENTS_PER_MINUTE = 20;

/** The device API: enrolment, the device's own state, subscription and inbox, and its live events. */
export function deviceRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, changes, sessions, vapid, pushSender, pushPolicy, audit } = services;

  registerEndpoint(app, endpoints.devicePushKey, () => pushKeyOf(vapid, pushSender !== null));

  registerEndpoint(
    app,
    endpoints.createEnrollmentLink,
    async ({ request }) => {
      // Enrolling one's own device is a step-up action, but for a person's first second factor.
      await sessions.requireStepUpUnlessFirstFactor(sessionOf(request));
      // PUBLIC_URL, never the request's Host header: a link a phone opens must not point where a header says.
      return audited(
        audit,
        request,
        { action: 'enrollment-link-created', after: (made) => ({ details: { expires: made.ExpiresTimestampUtc } }) },
        () =>
          createEnrollmentLink(
            { db, clock },
            { principal: sessionOf(request).principal, origin: services.config.publicUrl },
          ),
      );
    },
    {
      rateLimit: {
        max: ENROLLMENT_LINKS_PER_HOUR,
        timeWindow: 3_600_000,
        hook: 'preHandler',
        keyGenerator: (request: FastifyRequest) => `enrol-link:${request.session?.principal.id ?? request.ip}`,
      },
    },
  );

  registerEndpoint(
    app,
    endpoints.enrollDevice,
    async ({ body, request }) => {
      // A code, when sent, says whose device it is; otherwise the signed-in person's.
      let enroller: Enroller;
      if (body.EnrollmentCode !== undefined) enroller = { kind: 'code', code: body.EnrollmentCode };
      else if (request.session) {
        await sessions.requireStepUpUnlessFirstFactor(request.session);
        enroller = { kind: 'person', principal: request.session.principal };
      } else {
        throw new ProblemError(
          401,
          'unauthenticated',
          'Sign-in or enrolment code required',
          'Enrol while signed in, or with the EnrollmentCode of a link made in the dashboard (user menu, "Add a device").',
        );
      }
      const enrolled = await audited(
        audit,
        request,
        {
          action: 'device-enrolled',
          // Whose device it is (also when a link enrolled it: no one is signed in on the phone) and its request: told
          // by the enrolment's write (noteAuditFacts).
          event: { details: { by: enroller.kind === 'code' ? 'enrollment-code' : 'signed-in' } },
        },
        () => enrollDevice({ db, clock, changes, input: body, enroller, from: requestFacts(request) }),
      );
      pushSender?.sendNotice?.(enrolled.notice.targets, enrolled.notice.message);
      return enrolled.result;
    },
    {
      rateLimit: {
        max: ENROLLMENTS_PER_MINUTE,
        timeWindow: 60_000,
        hook: 'preHandler',
        keyGenerator: (request: FastifyRequest) =>
          request.session ? `enrol-person:${request.session.principal.id}` : `enrol-address:${request.ip}`,
      },
    },
  );

  registerEndpoint(app, endpoints.getDevice, ({ request }) => deviceState(db, deviceOf(request).id));

  registerEndpoint(app, endpoints.removeDevice, async ({ request }) => {
    const device = deviceOf(request);
    await audited(
      audit,
      request,
      {
        action: 'device-removed',
        // The enrolment's request names the device in both of its events.
        event: deviceActing(device, { type: 'AuthorizationRequest', id: device.authorizationRequestId }),
      },
      () => removeDevice(db, clock, device, changes),
    );
  });

  registerEndpoint(app, endpoints.putPushSubscription, ({ body, request }) =>
    setPushSubscription(db, activeDeviceOf(request, { waitingToo: true }), body, pushPolicy),
  );

  registerEndpoint(app, endpoints.deletePushSubscription, ({ request }) =>
    clearPushSubscription(db, activeDeviceOf(request, { waitingToo: true })),
  );

  registerEndpoint(app, endpoints.devicePushes, ({ request }) =>
    listDevicePushes(db, activeDeviceOf(request), clock()),
  );

  registerEndpoint(app, endpoints.reportPush, async ({ params, request }) => {
    const device = activeDeviceOf(request);
    await audited(
      audit,
      request,
      {
        action: 'code-reported',
        event: deviceActing(device, { type: 'Instruction', id: params.id }),
      },
      () =>
        reportCode({
          db,
          clock,
          changes,
          forgetSessions: (principalId) => sessions.forgetPrincipal(principalId),
          device,
          instructionId: params.id,
        }),
    );
  });

  registerEndpoint(app, endpoints.deviceNotices, ({ request }) => listDeviceNotices(db, activeDeviceOf(request).id));

  registerEndpoint(app, endpoints.reportNotice, async ({ params, request }) => {
    const device = activeDeviceOf(request);
    await audited(
      audit,
      request,
      {
        action: 'device-reported',
        // The person acted through this device; the entity is the reported device's enrolment.
        event: { userName: device.userName, details: { deviceId: device.id, noticeId: params.id } },
        after: ({ authorizationRequestId }) => ({
          entity: { type: 'AuthorizationRequest', id: authorizationRequestId },
        }),
      },
      () =>
        reportDeviceNotice({
          db,
          clock,
          changes,
          forgetSessions: (principalId) => sessions.forgetPrincipal(principalId),
          device,
          noticeId: params.id,
        }),
    );
  });

  deviceEventRoutes(app, services);
}
