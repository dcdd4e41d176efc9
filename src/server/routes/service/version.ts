import type { FastifyInstance } from 'fastify';
import { endpoints, SUPPORTED_VERSIONS, type VersionInfo } from '../../../shared/contract/index.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import type { Services } from '../services.ts';

export function versionRoutes(app: FastifyInstance, { config }: Services): void {
  const info: VersionInfo = {
    DefaultVersion: config.defaultApiVersion,
    SupportedVersions: [...SUPPORTED_VERSIONS],
    Demo: config.demo,
  };
  registerEndpoint(app, endpoints.version, () => info);
}
