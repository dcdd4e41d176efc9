import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

/**
 * What a Web Push to the device app carries, encrypted to the phone (RFC 8291): a declarative push message (RFC 8030
 * `web_push`), which a browser with declarative Web Push shows by itself and the device app's service worker shows
 * otherwise. Only what they read: never the code, since a phone shows notifications on its lock screen; the person
 * sees the code when they open the app. Strict, so a field added on one side and not read on the other fails the
 * sender's tests and the worker's typecheck, rather than travelling unread.
 */
export const WebPushPayload = deferred(() =>
  z.strictObject({
    web_push: z.literal(8030),
    notification: z.strictObject({
      /** Names the instruction (never the code), or says a new device was added. */
      title: z.string().check(z.minLength(1)),
      /** Until when the code works, or which device was added and when. */
      body: z.string(),
      /** Where a tap leads: the device app (the worker opens nothing outside it). */
      navigate: z.string(),
      /** One notification per instruction or enrolment: a newer one replaces one not yet looked at. */
      tag: z.string().check(z.minLength(1)),
    }),
  }),
);
export type WebPushPayload = z.infer<typeof WebPushPayload>;
