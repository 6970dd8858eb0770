// Passwords are stretched with scrypt (N = 2^15, r = 8, p = 1: about 32 MiB and tens of
// milliseconds per guess, OWASP's recommended floor) and a random salt. The parameters are
// stored with each hash, so they can be raised later without locking anyone out.
// scrypt runs on libuv's thread pool: a sign-in never blocks the event loop.

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { fail } from '../../platform/errors.js';

export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}
/** What new passwords cost unless the configuration says otherwise (Config.passwordCost). */
export const PASSWORD_COST: Readonly<PasswordCost> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });
let cost: Readonly<PasswordCost> = PASSWORD_COST;
const KEY_LENGTH = 32;
export const PASSWORD_MIN = 10;
/** scrypt reads the whole password; a megabyte of it would cost the server, not a guesser. */
export const PASSWORD_MAX = 256;

/**
 * The cost of the hashes this process makes from now on: startServer sets it from its
 * configuration (one server per process in production; in a test process, the last one
 * started). Hashes made before keep theirs: each names its own.
 */
export function usePasswordCost(next: Readonly<PasswordCost> = PASSWORD_COST): void {
  if (next.N === cost.N && next.r === cost.r && next.p === cost.p) return;
  cost = next;
  decoy = undefined; // an unknown address must cost what a wrong password costs at the new cost
}

function derive(password: string, salt: Buffer, params: PasswordCost): Promise<Buffer> {
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
  const params = cost;
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
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
