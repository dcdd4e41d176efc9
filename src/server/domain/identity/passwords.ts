import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/**
 * Hashes running at once: one core's worth fewer than the machine has, so the event loop keeps a core while a
 * sign-in storm hashes. scrypt runs on libuv's thread pool (4 threads): unlimited, a storm would take every
 * thread, leaving the event loop one share of the cores among four hashes, and file reads queued behind
 * whole hashes. The rest wait their turn.
 */
const hashing = pLimit(Math.max(1, availableParallelism() - 1));

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashing(() => deriveNow(password, salt, options));
}

function deriveNow(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // maxmem must exceed 128 * N * r, or scrypt refuses the cost it was asked for.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? BLOCK_SIZE) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A memory-hard hash with its own salt and cost: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A secret's scrypt key under a salt given (`scrypt$N$r$p$salt$hash`): for secrets made in a batch that share one
 * salt, so one derivation checks a typed secret against all of them.
 */
export async function hashWithSalt(secret: string, salt: Buffer, cost: number): Promise<string> {
  const key = await derive(secret, salt, { N: cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The scrypt cost (N) a stored hash was made with, or null for a hash this module did not make. */
export function hashCostOf(stored: string): number | null {
  const [scheme, n] = stored.split('$');
  const cost = Number(n);
  return scheme === 'scrypt' && Number.isInteger(cost) ? cost : null;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
