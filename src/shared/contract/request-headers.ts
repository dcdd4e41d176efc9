/**
 * The platform's request headers (SPEC §3), named once for both ends: the dashboard and the device app send them,
 * the service reads them.
 */

/** Names the calling application; the service's log lines and the account history keep it. */
export const CONSUMER_HEADER = 'X-Tachyon-Consumer';

/** The platform's header for a session token, read beside `Authorization: Bearer`. */
export const TOKEN_HEADER = 'X-Tachyon-Authenticate';

/** The most of a consumer's name the service keeps. */
export const CONSUMER_NAME_MAX_LENGTH = 100;
