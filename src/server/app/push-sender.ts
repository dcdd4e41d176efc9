import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import { DEVICE_APP_PATH } from '../../shared/contract/index.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { removePushSubscription, type TokenPushSender } from '../domain/delivery/token-delivery.ts';
import { type PushEndpointPolicy, pushEndpointCheck } from '../domain/devices/push-endpoint-policy.ts';
import type { Clock } from '../lib/clock.ts';
import type { VapidKeys } from '../push/vapid-keys.ts';
import { WebPushSender } from '../push/web-push-sender.ts';
import type { AppOptions, PushSenderContext } from './options.ts';

/** The production sender: Web Push to the push services, its outcomes counted with the service's metrics. */
function webPushSender(config: Config, registry: Registry | null) {
  return (context: PushSenderContext): TokenPushSender => {
    return new WebPushSender({
      ...context,
      log: context.log.child({ component: 'web-push' }),
      deviceAppUrl: new URL(DEVICE_APP_PATH, config.publicUrl).href,
      ...(registry ? { registry } : {}),
    });
  };
}

/**
 * The sender the options give or make, else the Web Push sender; none while Web Push is off. The start-up log says
 * when codes will not leave by Web Push, and why.
 */
export function pushSenderOf(
  fastify: FastifyInstance,
  options: AppOptions,
  made: {
    db: Kysely<Database>;
    clock: Clock;
    vapid: VapidKeys;
    pushPolicy: PushEndpointPolicy;
    registry: Registry | null;
  },
): TokenPushSender | null {
  const { db, clock, vapid, pushPolicy } = made;
  const makeSender =
    options.pushSender === undefined ? webPushSender(options.config, made.registry) : options.pushSender;
  let pushSender: TokenPushSender | null = null;
  if (vapid.subject !== null && makeSender) {
    const { subject } = vapid;
    pushSender =
      typeof makeSender === 'function'
        ? makeSender({
            vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject },
            checkEndpoint: (endpoint) => pushEndpointCheck(endpoint, pushPolicy),
            onGone: (deviceId, endpoint) => removePushSubscription(db, deviceId, endpoint),
            log: fastify.log,
            clock,
          })
        : makeSender;
  }
  const sender = pushSender;
  if (sender?.close) fastify.addHook('onClose', async () => sender.close?.());
  if (vapid.offReason) fastify.log.warn(vapid.offReason);
  else if (!pushSender) fastify.log.warn('Web Push is off: no push sender was given to this service process.');
  else fastify.log.info({ subject: vapid.subject }, 'Web Push is on');
  return pushSender;
}
