// Passwords are stretched with scrypt (N = 2^15, r = 8, p = 1: about 32 MiB and tens of
// milliseconds per guess, OWASP's recommended floor) and a random salt. The parameters are
// stored with each hash, so they can be raised later without locking anyone out.
// scrypt runs on libuv's thread pool: a sign-in never blocks the event loop.

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { fail } from '../../platform/errors.js';

const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
export const PASSWORD_MIN = 10;
/** scrypt reads the whole password; a megabyte of it would cost the server, not a guesser. */
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export function checkPasswordRules(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN) throw fail('invalid_field', `a password has at least ${PASSWORD_MIN} characters`, { field });
  if (password.length > PASSWORD_MAX) throw fail('invalid_field', `a password has at most ${PASSWORD_MAX} characters`, { field });
}

/** `scrypt$N$r$p$salt$key`, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password.slice(0, PASSWORD_MAX), Buffer.from(salt, 'base64url'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Made once: an unknown e-mail is checked against it, so it costs what a wrong password costs. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
