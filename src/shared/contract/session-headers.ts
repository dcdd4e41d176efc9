/**
 * How the service and its clients keep a session's deadlines in view (extension; docs/operations.md "Sessions").
 *
 * Every authenticated answer carries the session's current idle and absolute deadlines and the idle length.
 * A request that the person did not cause (polling, the live stream, a badge refresh) carries
 * `X-Tachyon-Background: 1`: it is served, but does not extend the idle deadline. Any other authenticated
 * request counts as the person's activity, as it always has for API clients.
 */
export const BACKGROUND_REQUEST_HEADER = 'X-Tachyon-Background';
export const SESSION_IDLE_EXPIRES_HEADER = 'X-Session-Idle-Expires';
export const SESSION_ABSOLUTE_EXPIRES_HEADER = 'X-Session-Absolute-Expires';
export const SESSION_IDLE_TIMEOUT_HEADER = 'X-Session-Idle-Timeout';

/**
 * How long a session lasts without the person doing anything, unless the service is configured otherwise
 * (`SESSION_IDLE_MINUTES`); the dashboard assumes it until the server has told it the idle length.
 */
export const DEFAULT_SESSION_IDLE_MINUTES = 30;

/** The most live streams one session may hold open at once (a few tabs); more are refused with 429. */
export const MAX_STREAMS_PER_SESSION = 5;
