import type { FastifyRequest } from 'fastify';
import type { AuthenticatedDevice } from '../../domain/devices/devices.ts';

/** The device the access hook established; routes with device access always have one. */
export function deviceOf(request: FastifyRequest): AuthenticatedDevice {
  if (!request.device) throw new Error(`route ${request.url} reached without a device`);
  return request.device;
}
