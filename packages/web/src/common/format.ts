// Numbers, money and dates as the viewer reads them: their locale and their time zone.
// Money arrives in minor units; each currency's own exponent (JPY 0, USD 2, KWD 3) comes
// from Intl, the same table the collector's PayPal files use.

let chosen: string | undefined; // undefined: the browser's own (the dashboard's)
export const locale = (): string | undefined => chosen;
/** The portal's language (i18n.ts): its numbers, money and dates from now on. */
export function setFormatLocale(tag: string | undefined): void {
  chosen = tag;
}
export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const digits = new Map<string, number>();
function exponent(currency: string): number {
  let n = digits.get(currency);
  if (n === undefined) {
    try {
      n = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      n = 2;
    }
    digits.set(currency, n);
  }
  return n;
}

export function money(minor: number, currency: string): string {
  const n = exponent(currency);
  try {
    return new Intl.NumberFormat(locale(), { style: 'currency', currency, minimumFractionDigits: n, maximumFractionDigits: n }).format(
      minor / 10 ** n,
    );
  } catch {
    return `${minor} ${currency}`;
  }
}

/** A money map (currency → minor units) as one line; a dash when empty. */
export function moneyMap(map: Record<string, number> | undefined): string {
  const parts = Object.entries(map ?? {})
    .filter(([, v]) => v !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, v]) => money(v, c));
  return parts.length ? parts.join(' · ') : '—';
}

/** The currency with the most in it: the one a chart of money shows. */
export function mainCurrency(...maps: Array<Record<string, number> | undefined>): string | undefined {
  const sums = new Map<string, number>();
  for (const m of maps) for (const [c, v] of Object.entries(m ?? {})) sums.set(c, (sums.get(c) ?? 0) + Math.abs(v));
  return [...sums].sort((a, b) => b[1] - a[1])[0]?.[0];
}

export const int = (n: number): string => new Intl.NumberFormat(locale()).format(n);
export const percent = (x: number): string => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(x);

/**
 * Referrals per click, as a plain number ("0.25", "2"). A company's server may record a
 * referral without any click, so this can pass 1, where a percentage would read "over 100 %".
 */
export const perClick = (x: number): string => new Intl.NumberFormat(locale(), { maximumFractionDigits: 2 }).format(x);

export const dateTime = (unix: number): string =>
  new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unix * 1000));

/** A YYYY-MM-DD date (no zone) as the viewer writes dates. */
export const day = (iso: string): string =>
  new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

/** A YYYY-MM-DD date, short, for a chart's axis. */
export const shortDay = (iso: string): string =>
  new Intl.DateTimeFormat(locale(), { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

/** Today in the viewer's zone, YYYY-MM-DD. */
export function today(): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: viewerZone(), year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(new Date())
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}`;
}

/** Calendar arithmetic on YYYY-MM-DD dates. */
export function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The start of a local date as an ISO instant, for the API's created_at filters. */
export function startOfDay(iso: string): string {
  return new Date(`${iso}T00:00:00`).toISOString();
}

/** Minimum payouts (currency → minor units) as the owner types them: one "USD 50.00" a line. */
export function minimumsText(map: Record<string, number>): string {
  return Object.entries(map)
    .map(([c, v]) => `${c} ${majorText(v, c)}`)
    .join('\n');
}

/** Minor units as the owner types the amount, in major units with the currency's digits: 4900 USD "49.00", 500 JPY "500". */
export const majorText = (minor: number, currency: string): string => decimalText(minor, exponent(currency));

/** An integer of hundredths (or another power of ten) as a decimal: 1250 with 2 digits is "12.50". */
export function decimalText(n: number, digits: number): string {
  const sign = n < 0 ? '-' : '';
  const s = String(Math.abs(n)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${s}` : `${sign}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/**
 * A typed decimal to an integer of 10^-digits, exactly (digits, not floating point): "12.5"
 * with 2 digits is 1250. Undefined when it is not a plain non-negative number or has more digits.
 */
export function parseDecimal(text: string, digits: number): number | undefined {
  const m = /^(\d{1,13})(?:[.,](\d*))?$/.exec(text.trim());
  if (!m || (m[2] ?? '').length > digits) return undefined;
  return Number(m[1]) * 10 ** digits + Number((m[2] ?? '').padEnd(digits, '0') || 0);
}

/** An amount typed in major units ("49.90") to minor units of the currency; a message when it cannot be. */
export function parseMajor(text: string, currency: string, what = 'the amount'): number {
  const n = parseDecimal(text, exponent(currency));
  if (n === undefined) {
    const d = exponent(currency);
    throw new Error(
      `Cannot read ${what} "${text}": write a number in ${currency}${d ? ` with at most ${d} decimals` : ', without decimals'}.`,
    );
  }
  return n;
}

/**
 * The typed lines back to minor units, exactly (digits, not floating point): "USD 50",
 * "eur 12.5", "JPY 1000". Throws a message naming the line it cannot read.
 */
export function parseMinimums(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]{3})\s+(\d{1,12})(?:[.,](\d+))?$/.exec(line);
    const code = m?.[1]?.toUpperCase() ?? '';
    const n = m ? exponent(code) : 0;
    if (!m || (m[3] ?? '').length > n) throw new Error(`Cannot read "${line}": write a currency code and an amount, such as USD 50.00`);
    out[code] = Number(m[2]) * 10 ** n + Number((m[3] ?? '').padEnd(n, '0') || 0);
  }
  return out;
}
