import type { FastifyInstance } from 'fastify';
import { endpoints, SUPPORTED_VERSIONS, type VersionInfo } from '../../../shared/contract/index.ts';
import { setupProgress } from '../../domain/setup/setup-progress.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { isLoopbackHost } from '../../http/guards/allowed-hosts.ts';
import type { Services } from '../services.ts';

export function versionRoutes(app: FastifyInstance, { config, db }: Services): void {
  const info: VersionInfo = {
    DefaultVersion: config.defaultApiVersion,
    SupportedVersions: [...SUPPORTED_VERSIONS],
    Demo: config.demo,
  };
  registerEndpoint(app, endpoints.version, () => info);
  // What the server knows of its own set-up, for the overview's first-run checklist.
  const facts = {
    demo: config.demo,
    publicUrl: config.publicUrl,
    publicUrlReachable: !isLoopbackHost(new URL(config.publicUrl).hostname),
    adminUserName: config.adminUserName ?? null,
    directoryConnected: config.directory !== null,
  };
  registerEndpoint(app, endpoints.setupProgress, () => setupProgress(db, facts));
}
