import type { FastifyBaseLogger } from 'fastify';
import type { AuditSink } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { TokenPushSender } from '../domain/delivery/token-delivery.ts';
import type { HostLookup, PushEndpointCheck } from '../domain/devices/push-endpoint-policy.ts';
import type { Clock } from '../lib/clock.ts';

/** What a Web Push sender is made from, once the app has its database, its keys and its log. */
export interface PushSenderContext {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** The endpoint policy (a reason to refuse, or the addresses checked): asked before every push, as DNS changes. */
  checkEndpoint: (endpoint: string) => Promise<PushEndpointCheck>;
  /** Forgets a subscription its push service called gone (404/410), if the device still has that endpoint. */
  onGone: (deviceId: number, endpoint: string) => Promise<void>;
  log: FastifyBaseLogger;
  clock: Clock;
}

export interface AppOptions {
  config: Config;
  /** An open database; when absent the app opens the one the config names and closes it on close. */
  database?: DatabaseHandle;
  clock?: Clock;
  /**
   * Sends new codes by Web Push: a sender, or a function making one from what only the app knows (the VAPID keys
   * kept in the database). Absent: the Web Push sender (push/web-push-sender.ts). Null, or Web Push off: codes reach
   * the inbox and the devices' live streams only.
   */
  pushSender?: TokenPushSender | ((context: PushSenderContext) => TokenPushSender) | null;
  /** Resolves push service host names for the endpoint policy (tests stand in for DNS); the system's otherwise. */
  hostLookup?: HostLookup;
  /** Certificates the email alerts' SMTP connection trusts beside the system's (tests' own mail server). */
  smtpCa?: string;
  /** Where audit lines go instead of AUDIT_LOG's (tests); null: none. */
  auditSink?: AuditSink | null;
  /** Standard output as the service log writes it, which AUDIT_LOG=stdout shares so lines never interleave. */
  auditStdout?: AuditSink;
}
