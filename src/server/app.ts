import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppOptions } from './app/options.ts';
import { registerPipeline } from './app/pipeline.ts';
import { registerRoutes } from './app/routes.ts';
import { serverOptions } from './app/server-options.ts';
import { buildServices } from './app/services.ts';
import {
  bootstrapAdminAccount,
  openAppDatabase,
  schedulePurges,
  seedOrRetireDemo,
  warnOfLocalAccountsInDirectory,
} from './app/start-up.ts';
import { systemClock } from './lib/clock.ts';

export type { AppOptions, PushSenderContext } from './app/options.ts';
export { serverOptions } from './app/server-options.ts';

/** The whole service as a plugin: tests register it on an instance they never listen with. */
export async function app(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // 1. Start-up tasks: the database, demo or real, the bootstrap administrator.
  const database = await openAppDatabase(fastify, options);
  await seedOrRetireDemo(fastify, database, config, clock);
  await bootstrapAdminAccount(fastify, database, config, clock);
  // 2. The service graph, and what runs beside it.
  const { services, metricsRegistry, purgeAll } = await buildServices(fastify, options, database, clock);
  await schedulePurges(fastify, purgeAll);
  await warnOfLocalAccountsInDirectory(fastify, services.accounts, config);
  // 3. The ordered HTTP pipeline.
  await registerPipeline(fastify, services, metricsRegistry);
  // 4. The routes.
  await registerRoutes(fastify, services);
}
// Registered at the root, not encapsulated: its error and not-found handlers cover every route.
Object.assign(app, { [Symbol.for('skip-override')]: true });

export async function buildApp(options: AppOptions, logger?: FastifyServerOptions['logger']): Promise<FastifyInstance> {
  const fastify = Fastify(serverOptions(options.config, logger));
  await fastify.register(app, options);
  await fastify.ready();
  return fastify;
}
