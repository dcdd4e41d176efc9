import {
  AlertDelivery,
  AlertDeliveryList,
  AlertDestination,
  AlertDestinationInput,
  AlertDestinationList,
  AlertDestinationUpdate,
  AlertDestinationWithSecret,
} from './alerts.ts';
import { ACCOUNTS_READ, ACCOUNTS_WRITE, base, type Endpoint } from './endpoint.ts';
import { IdParam } from './resources.ts';

const admin = { ...base, seedNumber: null } as const;

/**
 * Alert destinations and their delivery logs (extensions in every API version). Changing where security events go
 * is as sensitive as changing permissions: Accounts Write and a recent second factor (step-up).
 */
export const alertEndpoints = {
  listAlertDestinations: {
    ...admin,
    method: 'GET',
    path: '/Admin/Alerts/Destinations',
    summary: 'Where security alerts are sent (email, webhooks), the events each wants and whether it keeps failing',
    access: ACCOUNTS_READ,
    response: AlertDestinationList,
  },
  createAlertDestination: {
    ...admin,
    noStore: true,
    method: 'POST',
    path: '/Admin/Alerts/Destinations',
    summary: 'Add an alert destination; a Webhook’s whsec_ signing secret is answered this once',
    access: ACCOUNTS_WRITE,
    stepUp: true,
    status: 201,
    body: AlertDestinationInput,
    response: AlertDestinationWithSecret,
  },
  updateAlertDestination: {
    ...admin,
    method: 'PUT',
    path: '/Admin/Alerts/Destinations/:id',
    summary: 'Rename an alert destination, change the events it wants, or where it sends them (checked as when added)',
    access: ACCOUNTS_WRITE,
    stepUp: true,
    params: IdParam,
    body: AlertDestinationUpdate,
    response: AlertDestination,
  },
  deleteAlertDestination: {
    ...admin,
    method: 'DELETE',
    path: '/Admin/Alerts/Destinations/:id',
    summary: 'Remove an alert destination and its delivery log (what it still had to send is dropped)',
    access: ACCOUNTS_WRITE,
    stepUp: true,
    status: 204,
    params: IdParam,
  },
  rotateAlertSecret: {
    ...admin,
    noStore: true,
    method: 'POST',
    path: '/Admin/Alerts/Destinations/:id/Secret',
    summary: 'Replace a Webhook destination’s signing secret: the new whsec_ secret is answered this once',
    access: ACCOUNTS_WRITE,
    stepUp: true,
    params: IdParam,
    response: AlertDestinationWithSecret,
  },
  listAlertDeliveries: {
    ...admin,
    method: 'GET',
    path: '/Admin/Alerts/Destinations/:id/Deliveries',
    summary: 'A destination’s delivery log, newest first (the latest 200): status, attempts, the last error',
    access: ACCOUNTS_READ,
    params: IdParam,
    response: AlertDeliveryList,
  },
  resendAlertDelivery: {
    ...admin,
    method: 'POST',
    path: '/Admin/Alerts/Deliveries/:id/Resend',
    summary: 'Send an alert again now, with the same webhook-id (a receiver that has it already can ignore it)',
    access: ACCOUNTS_WRITE,
    params: IdParam,
    response: AlertDelivery,
  },
} as const satisfies Record<string, Endpoint>;
