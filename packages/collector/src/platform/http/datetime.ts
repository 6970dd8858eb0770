// Date-time filter values (docs/api.md §9.1), as Unix seconds:
//   2025-03-01 10:00:00 +0200      Reditus's form
//   2025-03-01T10:00:00Z           ISO 8601, also with +02:00 and fractions of a second
//   2025-03-01 10:00:00  0200      a `+` that was not URL-encoded arrives as a space
//   1740823200                     Unix seconds: 9 or 10 digits (1973 to 2286)
// A missing offset means UTC, the service's own zone; a date alone means its midnight.
// Fractions of a second are kept (to the millisecond): the caller compares them exactly
// against whole stored seconds (list-query.ts), so `toISOString()` of "now" leaves out
// nothing created in the current second. A bare integer of another length is refused: `2025`
// would be 1970's 34th minute, and 13 digits are JavaScript's milliseconds, each a mistake
// more likely than a wish.

const FORM =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?: *([Zz])| *([+-])(\d{2}):?(\d{2})| +(\d{2}):?(\d{2}))?)?$/;

/** An instant: its whole Unix second, and whether a fraction of a second follows it. */
export interface Instant {
  seconds: number;
  /** Any non-zero digit after the seconds, to the nanosecond: never rounded away. */
  fraction: boolean;
}

/** The instant a date-time value names; undefined when it is none. */
export function parseInstant(raw: string): Instant | undefined {
  const value = raw.trim();
  if (/^[1-9]\d{8,9}$/.test(value)) return { seconds: Number(value), fraction: false };
  const m = FORM.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const sign = m[9] === '-' ? -1 : 1;
  const offsetHours = Number(m[10] ?? m[12] ?? 0);
  const offsetMinutes = Number(m[11] ?? m[13] ?? 0);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  // Date.UTC rolls 2025-02-30 over into March; a real date survives the round trip.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return { seconds: ms / 1000 - sign * (offsetHours * 3600 + offsetMinutes * 60), fraction: /[1-9]/.test(m[7] ?? '') };
}
