/**
 * The interface, once, for both ends. Written with `zod/mini` (imported as `zod/mini` everywhere): the same
 * validation core as classic zod, but tree-shakable, so the dashboard downloads only the parts its schemas use
 * (classic zod is ~25 KB gzip whatever one uses). Unlike classic zod, mini registers no error messages: see
 * messages.ts for who loads them, and when.
 */
export * from './accounts.ts';
export * from './activity.ts';
export * from './alerts.ts';
export * from './api-prefix.ts';
export * from './deferred.ts';
export * from './demo-accounts.ts';
export * from './devices.ts';
export * from './endpoint-types.ts';
export * from './endpoints.ts';
export * from './history.ts';
export * from './people.ts';
export * from './problems.ts';
export * from './request-context.ts';
export * from './request-headers.ts';
export * from './resources.ts';
export * from './session-headers.ts';
export * from './sign-in-methods.ts';
export * from './single-sign-on.ts';
export * from './temporary-codes.ts';
export * from './timestamps.ts';
export * from './two-factor.ts';
export * from './versions.ts';
export * from './web-push-payload.ts';
