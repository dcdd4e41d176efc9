import type { FastifyInstance } from 'fastify';
import {
  API_PREFIX,
  API_VERSION_HEADER,
  type ApiVersion,
  availability,
  isApiVersion,
  SUPPORTED_VERSIONS,
} from '../../shared/contract/index.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { pathVersionOf } from './api-path.ts';
import { guardEndpoints } from './endpoint-guard.ts';

const VERSION_HEADER = API_VERSION_HEADER.toLowerCase();

/**
 * SPEC §3 "Versions": the Api-Version header selects a version (absent: the default), every response
 * names the version that served it, endpoints missing in a version answer 404, obsolete ones say so.
 * Hooks are callback style: nothing here waits, and an async hook costs a promise on every request.
 * Fastify turns a throw into done(error).
 */
export function registerVersioning(app: FastifyInstance, defaultVersion: ApiVersion): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.headers[VERSION_HEADER];
    const header = Array.isArray(raw) ? raw.join(',') : raw?.trim();
    const segment = pathVersionOf(request.raw);
    if (segment !== undefined && header !== undefined && header !== '' && header !== segment) {
      reply.header(API_VERSION_HEADER, defaultVersion);
      throw new ProblemError(
        400,
        'version-conflict',
        'Conflicting API versions',
        `The path selects API ${segment.slice(0, 40)} but the ${API_VERSION_HEADER} header asks for ${header.slice(0, 40)}. Send one, or the same version in both.`,
      );
    }
    const requested = segment ?? header;
    if (requested !== undefined && requested !== '' && !isApiVersion(requested)) {
      reply.header(API_VERSION_HEADER, defaultVersion);
      throw new ProblemError(
        400,
        'unsupported-version',
        'Unsupported API version',
        `API version "${requested.slice(0, 40)}" is not supported. Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`,
        { extensions: { supportedVersions: [...SUPPORTED_VERSIONS] } },
      );
    }
    const version = requested ? (requested as ApiVersion) : defaultVersion;
    request.apiVersion = version;
    reply.header(API_VERSION_HEADER, version);
    done();
  });

  guardEndpoints(app, (endpoint) => {
    // The catalogue never changes while the service runs: each version's answer is worked out once.
    const byVersion = new Map(SUPPORTED_VERSIONS.map((version) => [version, availability(endpoint, version)]));
    const link = endpoint.obsolete ? `<${API_PREFIX}${endpoint.obsolete.successor}>; rel="successor-version"` : null;
    // RFC 9745: the moment as a structured-field date, seconds since the epoch.
    const deprecation = endpoint.obsolete ? `@${Date.parse(endpoint.obsolete.deprecatedAt) / 1000}` : null;
    return (request, reply, done) => {
      const { available, obsolete, versions } =
        byVersion.get(request.apiVersion) ?? availability(endpoint, request.apiVersion);
      if (!available) {
        throw new ProblemError(
          404,
          'unavailable-in-version',
          'Not available in this API version',
          `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, '{$1}')} is not available in API ${request.apiVersion}; it exists in API ${versions.join(', ')}.`,
          { extensions: { availableIn: versions } },
        );
      }
      if (obsolete && link && deprecation) {
        reply.header('Deprecation', deprecation);
        reply.header('Link', link);
      }
      done();
    };
  });
}
