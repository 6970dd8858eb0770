// JSON text to an object, for request bodies and webhooks alike: at most MAX_JSON_DEPTH
// deep, checked by one scan before JSON.parse, `__proto__` keys dropped, and a JSON object
// at the top; anything else is 400 `malformed_json`.

import { fail } from './errors.js';

/** No route's body needs more than a few levels, nor a Stripe event a dozen. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `text` opens more than `max` arrays or objects inside one another. One pass,
 * counting brackets outside strings; whether the rest is valid JSON is JSON.parse's to say.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash: the next character is escaped, even a quote
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

// A `__proto__` key is dropped while parsing, like any other key a route does not know, so
// it is never merged anywhere. Only text that can spell it (plainly, or with \u escapes)
// pays for the reviver.
const dropProto = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/** The JSON object `text` holds, or 400 `malformed_json`: too deep, not JSON, or not an object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw fail('malformed_json', `the body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text, text.includes('__proto__') || text.includes('\\u') ? dropProto : undefined);
  } catch {
    throw fail('malformed_json', 'the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('malformed_json', 'the body must be a JSON object');
  return value as Record<string, unknown>;
}
