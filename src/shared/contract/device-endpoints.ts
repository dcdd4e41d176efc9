import {
  DeviceEnrollment,
  DeviceEnrollmentResult,
  DeviceNoticeList,
  DevicePushList,
  DeviceState,
  PushKey,
  PushSubscriptionInput,
} from './devices.ts';
import { base, DEVICE, type Endpoint } from './endpoint.ts';
import { IdParam, LoginCredentials, LoginResult } from './resources.ts';

/**
 * The endpoints the device app calls, a part of the catalogue (endpoints.ts lists them in their places): the device
 * app imports these alone, so a phone downloads and evaluates their schemas, not every endpoint's.
 */
export const deviceAppEndpoints = {
  login: {
    ...base,
    noStore: true,
    seedNumber: 1,
    method: 'POST',
    path: '/Consumer/Authentication',
    summary: 'Sign in with user name and password',
    access: { kind: 'anonymous' },
    body: LoginCredentials,
    response: LoginResult,
  },

  endSession: {
    ...base,
    seedNumber: null,
    method: 'DELETE',
    path: '/Consumer/Authentication/Session',
    summary: 'Sign out (revoke the current session)',
    access: { kind: 'session' },
    duringEnrolment: true,
    status: 204,
  },

  devicePushKey: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Device/PushKey',
    summary: "The service's VAPID public key for PushManager.subscribe, and whether Web Push is on",
    access: { kind: 'session-or-device' },
    response: PushKey,
  },

  enrollDevice: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'POST',
    path: '/Device/Enrollments',
    summary: 'Enrol this device: a Pending authorization request for its person, and the device credential',
    access: { kind: 'session-or-enrollment-code' },
    status: 201,
    body: DeviceEnrollment,
    response: DeviceEnrollmentResult,
  },

  getDevice: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'GET',
    path: '/Device',
    summary: "This device's authorization request and push message user status",
    access: DEVICE,
    response: DeviceState,
  },

  removeDevice: {
    ...base,
    seedNumber: null,
    method: 'DELETE',
    path: '/Device',
    summary: 'Remove this device: its push message user becomes Deleted and its credential ends',
    access: DEVICE,
    status: 204,
  },

  putPushSubscription: {
    ...base,
    seedNumber: null,
    method: 'PUT',
    path: '/Device/PushSubscription',
    summary: "Store this device's Web Push subscription (the browser's PushSubscription.toJSON())",
    access: DEVICE,
    status: 204,
    body: PushSubscriptionInput,
  },

  deletePushSubscription: {
    ...base,
    seedNumber: null,
    method: 'DELETE',
    path: '/Device/PushSubscription',
    summary: "Forget this device's Web Push subscription (codes still reach its inbox)",
    access: DEVICE,
    status: 204,
  },

  devicePushes: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'GET',
    path: '/Device/Pushes',
    summary: "This device's two-factor codes that still work, newest first",
    access: DEVICE,
    response: DevicePushList,
  },

  reportPush: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Device/Pushes/:id/Report',
    summary: '"This wasn\'t me": the code stops working, every session of the person ends, account admins see it',
    access: DEVICE,
    status: 204,
    params: IdParam,
  },

  deviceNotices: {
    ...base,
    noStore: true,
    seedNumber: null,
    method: 'GET',
    path: '/Device/Notices',
    summary: "Notices that other devices were enrolled or approved for this device's person, newest first",
    access: DEVICE,
    response: DeviceNoticeList,
  },

  reportNotice: {
    ...base,
    seedNumber: null,
    method: 'POST',
    path: '/Device/Notices/:id/Report',
    summary:
      '"This wasn\'t me" about a new device: it is rejected or removed, every session of the person ends, account admins see it',
    access: DEVICE,
    status: 204,
    params: IdParam,
  },

  deviceEvents: {
    ...base,
    seedNumber: null,
    method: 'GET',
    path: '/Device/Events',
    summary: "Live stream of this device's decision, status and codes (Server-Sent Events; resumes with Last-Event-ID)",
    access: DEVICE,
    eventStream:
      'Server-Sent Events: each event is a JSON DeviceEvent (device, token, token-ended, notice) with an id to resume from with Last-Event-ID.',
  },
} as const satisfies Record<string, Endpoint>;
