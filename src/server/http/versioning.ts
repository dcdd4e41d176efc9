import type { FastifyInstance } from 'fastify';
import {
  API_VERSION_HEADER,
  type ApiVersion,
  type Availability,
  availability,
  type Endpoint,
  isApiVersion,
  SUPPORTED_VERSIONS,
} from '../../shared/contract/index.ts';
import { ProblemError } from '../domain/problem-error.ts';

/** RFC 9745 wants the moment of deprecation; #2 became obsolete with API 3.1. */
const OBSOLETE_SINCE_3_1 = '@1577836800';

const availabilities = new WeakMap<Endpoint, Map<ApiVersion, Availability>>();

/** The catalogue never changes while the service runs, so each endpoint's answer per version is worked out once. */
function availabilityOf(endpoint: Endpoint, version: ApiVersion): Availability {
  let byVersion = availabilities.get(endpoint);
  if (!byVersion) {
    byVersion = new Map();
    availabilities.set(endpoint, byVersion);
  }
  let answer = byVersion.get(version);
  if (!answer) {
    answer = availability(endpoint, version);
    byVersion.set(version, answer);
  }
  return answer;
}

/**
 * SPEC §3 "Versions": the Api-Version header selects a version (absent: the default), every response
 * names the version that served it, endpoints missing in a version answer 404, obsolete ones say so.
 */
export function registerVersioning(app: FastifyInstance, defaultVersion: ApiVersion): void {
  // Callback style: nothing here waits, and an async hook costs a promise on every request. Fastify turns a throw into done(error).
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.headers[API_VERSION_HEADER.toLowerCase()];
    const requested = Array.isArray(raw) ? raw.join(',') : raw?.trim();
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

    const endpoint = request.routeOptions.config.endpoint;
    if (!endpoint) return done();
    const { available, obsolete, versions } = availabilityOf(endpoint, version);
    if (!available) {
      throw new ProblemError(
        404,
        'unavailable-in-version',
        'Not available in this API version',
        `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, '{$1}')} is not available in API ${version}; it exists in API ${versions.join(', ')}.`,
        { extensions: { availableIn: versions } },
      );
    }
    if (obsolete && endpoint.obsolete) {
      reply.header('Deprecation', OBSOLETE_SINCE_3_1);
      reply.header('Link', `</api${endpoint.obsolete.successor}>; rel="successor-version"`);
    }
    done();
  });
}
