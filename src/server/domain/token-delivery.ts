export interface PushSubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}
export interface TokenPushTarget {
  deviceId: number;
  subscription: PushSubscriptionKeys;
}
export interface TokenPushMessage {
  instructionId: number;
  name: string;
  scheduled: boolean;
  token: string;
  expires: Date;
}
export interface TokenPushSender {
  /** One push per target, started after the commit; never throws and never delays the caller. */
  send(targets: readonly TokenPushTarget[], message: TokenPushMessage): void;
}
