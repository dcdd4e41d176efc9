/** Two-factor tokens (SPEC §3): how long a pushed token is valid, and how many wrong ones lock its instruction. */
export const TOKEN_LIFETIME_MINUTES = 10;
export const MAX_TOKEN_ATTEMPTS = 5;
