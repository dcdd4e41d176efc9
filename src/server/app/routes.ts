import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '../routes/accounts/accounts.ts';
import { authenticationRoutes } from '../routes/accounts/authentication.ts';
import { signInMethodRoutes } from '../routes/accounts/sign-in-methods.ts';
import { singleSignOnRoutes } from '../routes/accounts/single-sign-on.ts';
import { activityRoutes } from '../routes/activity/activity.ts';
import { changeEventRoutes } from '../routes/change-events.ts';
import { authorizationRequestRoutes } from '../routes/consumer/authorization-requests.ts';
import { historyRoutes } from '../routes/consumer/history.ts';
import { instructionRoutes } from '../routes/consumer/instructions.ts';
import { peopleRoutes } from '../routes/consumer/people.ts';
import { pushUserRoutes } from '../routes/consumer/push-users.ts';
import { deviceRoutes } from '../routes/devices/devices.ts';
import { alertRoutes } from '../routes/service/alerts.ts';
import { apiDocsRoutes } from '../routes/service/api-docs.ts';
import { backupRoutes } from '../routes/service/backup.ts';
import { dashboardRoutes } from '../routes/service/dashboard.ts';
import { demoRoutes } from '../routes/service/demo.ts';
import { healthRoutes } from '../routes/service/health.ts';
import { versionRoutes } from '../routes/service/version.ts';
import type { Services } from '../routes/services.ts';

/** Every route, the API's and the dashboard's; the demo's only in demo mode. */
export async function registerRoutes(fastify: FastifyInstance, services: Services): Promise<void> {
  const { config } = services;
  versionRoutes(fastify, services);
  authenticationRoutes(fastify, services);
  singleSignOnRoutes(fastify, services, services.oidc);
  authorizationRequestRoutes(fastify, services);
  pushUserRoutes(fastify, services);
  historyRoutes(fastify, services);
  changeEventRoutes(fastify, services);
  healthRoutes(fastify, services);
  apiDocsRoutes(fastify, services);
  accountRoutes(fastify, services);
  deviceRoutes(fastify, services);
  instructionRoutes(fastify, services);
  peopleRoutes(fastify, services);
  activityRoutes(fastify, services);
  signInMethodRoutes(fastify, services);
  alertRoutes(fastify, services);
  backupRoutes(fastify, services);
  if (config.demo) demoRoutes(fastify, services);
  await dashboardRoutes(fastify, config.webRoot);
}
