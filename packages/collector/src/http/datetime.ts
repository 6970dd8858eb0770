// Date-time filter values (design/api.md §4), as Unix seconds:
//   2025-03-01 10:00:00 +0200      the seed's form
//   2025-03-01T10:00:00Z           ISO 8601, also with +02:00 and fractions of a second
//   2025-03-01 10:00:00  0200      a `+` that was not URL-encoded arrives as a space
// A missing offset means UTC, the service's own zone; a date alone means its midnight;
// a bare integer is already Unix seconds. Fractions are cut to the second.

const FORM =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?: *([Zz])| *([+-])(\d{2}):?(\d{2})| +(\d{2}):?(\d{2}))?)?$/;

export function parseDateTime(raw: string): number | undefined {
  const value = raw.trim();
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const m = FORM.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number, number, number, number, number, number,
  ];
  const sign = m[8] === '-' ? -1 : 1;
  const offsetHours = Number(m[9] ?? m[11] ?? 0);
  const offsetMinutes = Number(m[10] ?? m[12] ?? 0);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  // Date.UTC rolls 2025-02-30 over into March; a real date survives the round trip.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return ms / 1000 - sign * (offsetHours * 3600 + offsetMinutes * 60);
}
