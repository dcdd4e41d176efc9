import { randomBytes } from 'node:crypto';

/** RFC 4648 base32, lower case: letters and digits only, so a double click selects all of it and nothing is mistyped as symbols. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 160 random bits: above the 128 an API credential needs, and exactly 32 base32 characters. */
const SECRET_BYTES = 20;

/** Marks the text as this service's API secret, for people reading a script and for secret scanners. */
export const API_SECRET_PREFIX = 'tcs_';

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += ALPHABET[(value << (5 - bits)) & 31];
  return text;
}

/** A new API account secret: random, shown once, stored only as a password hash. */
export function generateApiSecret(): string {
  return `${API_SECRET_PREFIX}${base32(randomBytes(SECRET_BYTES))}`;
}
