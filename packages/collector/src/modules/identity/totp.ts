// Authenticator codes (RFC 6238: SHA-1, 6 digits, 30 s) through otplib, whose defaults are
// what every authenticator app reads from an otpauth:// URI.

import { generateSecret, generateURI, verifySync } from 'otplib';

/** A code may be a step early or late: a phone's clock drifts, and a person types slowly. */
const TOLERANCE_SECONDS = 30;

/** 20 random bytes in base32, RFC 4226's recommended length. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const otpauthUri = (issuer: string, label: string, secret: string): string => generateURI({ issuer, label, secret });

/** The time step `code` belongs to, when it is right at `now` and later than `after`; undefined otherwise. */
export function totpStep(secret: string, code: string, now: number, after: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = verifySync({
    secret,
    token: code,
    epoch: now,
    epochTolerance: TOLERANCE_SECONDS,
    ...(after === null ? {} : { afterTimeStep: after }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
