import type { ApiVersion, Endpoint } from '../../shared/contract/index.ts';
import type { AuthenticatedSession } from '../domain/authentication/sessions.ts';
import type { AuthenticatedDevice } from '../domain/devices/devices.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API version serving this request (the Api-Version header, or the default). */
    apiVersion: ApiVersion;
    /** The caller's session, once the endpoint's access rule has checked it. */
    session: AuthenticatedSession | null;
    /** The calling device, once a device endpoint's access rule has checked its credential. */
    device: AuthenticatedDevice | null;
  }
  interface FastifyContextConfig {
    /** The catalogue entry this route serves; absent on routes outside the interface (the dashboard). */
    endpoint?: Endpoint;
  }
}
