// UUIDv7 (RFC 9562): a millisecond timestamp, then a counter, then randomness. Ids made
// by this process sort in creation order, which the lists use to break ties within
// one second.

import { randomBytes, randomFillSync } from 'node:crypto';

// Random bytes are drawn a pool at a time: one call per id cost more than the rest of
// the id (seen in a --cpu-prof of the conversion route).
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let used = POOL_IDS;
const bytes = new Uint8Array(16);
const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let lastMs = 0;
let counter = 0;

export function uuidv7(nowMs: number = Date.now()): string {
  if (used === POOL_IDS) {
    randomFillSync(pool);
    used = 0;
  }
  bytes.set(pool.subarray(16 * used, 16 * ++used));
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = (((bytes[6] ?? 0) << 8) | (bytes[7] ?? 0)) & 0x7ff; // random start, room to count up
  } else {
    counter = (counter + 1) & 0xfff;
    if (counter === 0) lastMs++; // 4096 ids in one millisecond: borrow the next one
  }
  let ms = lastMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += hex[bytes[i] ?? 0];
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A program's Stripe endpoint id, the last part of its webhook URL: unguessable, so the
 * URL alone says nothing about which programs exist (every event is verified anyway).
 */
export function stripeEndpointId(): string {
  return `we_${randomBytes(12).toString('base64url')}`;
}
