// `tally import csv`: the documented files (docs/importing.md), one per kind, each with a
// header row naming its columns in any order. A row that cannot be imported is skipped
// with its line number and why; a file without a required column is refused whole.

import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { parseCsvRows } from '../../platform/csv.js';
import { knownCurrency, minorFromDecimal, minorUnit } from '../../core/money.js';
import { states } from '../../core/state-machines.js';
import { FileRefused } from './client.js';
import {
  seconds,
  skip,
  type Item,
  type Kind,
  type Source,
  type SourceCommission,
  type SourcePartner,
  type SourceReferral,
} from './model.js';

export interface CsvFiles {
  partners?: string | undefined;
  referrals?: string | undefined;
  commissions?: string | undefined;
}

const REQUIRED: Record<Kind, string[]> = {
  partner: ['id', 'name', 'email'],
  referral: ['id', 'partner_id', 'email'],
  commission: ['id', 'partner_id', 'amount', 'currency'],
};

type Row = (column: string) => string;

/**
 * A file's text, refused when it is not UTF-8 (a spreadsheet's Latin-1 "CSV" would import
 * as mojibake) with the line and column of the first byte that is not; a BOM is dropped.
 */
function utf8Text(path: string, bytes: Buffer): string {
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  if (isUtf8(bytes)) return text;
  // Each invalid sequence became one U+FFFD; the first one that is not a real U+FFFD in the
  // file (EF BF BD) is the fault. Everything before it decoded as it is, so its byte offset is exact.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) {
    const at = bom + Buffer.byteLength(text.slice(0, i));
    if (bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) continue;
    const lines = text.slice(0, i).split(/\r\n|\r|\n/);
    const column = [...lines.at(-1)!].length + 1;
    const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
    throw new FileRefused(
      `${path}: line ${lines.length}, column ${column}: not UTF-8 (byte 0x${byte}); save it as UTF-8 (a spreadsheet's "CSV UTF-8") and import it again`,
    );
  }
  return text;
}

/** The file's rows as column readers, with the line each starts on (the header is line 1). */
function* rows(path: string | undefined, kind: Kind): Iterable<{ line: number; get: Row }> {
  if (path === undefined) return;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new FileRefused(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const [header, ...body] = parseCsvRows(utf8Text(path, bytes));
  const columns = (header?.cells ?? []).map((h) => h.trim().toLowerCase());
  const missing = REQUIRED[kind].filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new FileRefused(`${path}: the header has no column ${missing.join(', ')} (see docs/importing.md)`);
  for (const { line, cells } of body) {
    yield { line, get: (c) => (cells[columns.indexOf(c)] ?? '').trim() };
  }
}

/** The state column, or the default when empty; undefined when it is not one of the machine's. */
function stateOf<S extends string>(raw: string, allowed: readonly S[], fallback: S): S | undefined {
  if (raw === '') return fallback;
  return allowed.find((s) => s === raw.toLowerCase());
}

/** A time column: empty is "unknown" (0, which the import takes as now); undefined when unreadable. */
const timeOf = (raw: string): number | undefined => (raw === '' ? 0 : seconds(raw));

function partner(get: Row, line: number): Item<SourcePartner> {
  const state = stateOf(get('state'), ['accepted', 'pending', 'declined'] as const, 'accepted');
  const createdAt = timeOf(get('created_at'));
  const fault = !state
    ? `state "${get('state')}" is not accepted, pending or declined`
    : createdAt === undefined
      ? 'created_at is not an ISO 8601 time'
      : null;
  if (fault) return skip('partner', get('id'), `line ${line}: ${fault}`);
  return {
    kind: 'partner',
    id: get('id'),
    name: get('name'),
    email: get('email'),
    paypalEmail: get('paypal_email') || null,
    state: state!,
    slugs: get('slugs').split(/\s+/).filter(Boolean),
    createdAt: createdAt!,
  };
}

function referral(get: Row, line: number): Item<SourceReferral> {
  const state = stateOf(get('state'), states('referral'), 'converted');
  const createdAt = timeOf(get('created_at'));
  const fault = !state
    ? `state "${get('state')}" is not one of ${states('referral').join(', ')}`
    : createdAt === undefined
      ? 'created_at is not an ISO 8601 time'
      : null;
  if (fault) return skip('referral', get('id'), `line ${line}: ${fault}`);
  return {
    kind: 'referral',
    id: get('id'),
    partnerId: get('partner_id'),
    email: get('email'),
    uid: get('uid') || null,
    state: state!,
    createdAt: createdAt!,
  };
}

function commission(get: Row, line: number): Item<SourceCommission> {
  const currency = knownCurrency(get('currency'));
  const amount = currency === undefined ? undefined : minorFromDecimal(get('amount'), currency);
  const state = stateOf(get('state'), states('commission'), 'pending');
  const createdAt = timeOf(get('created_at'));
  const paidAt = timeOf(get('paid_at'));
  const fault =
    currency === undefined
      ? `currency "${get('currency')}" is not an ISO 4217 code`
      : amount === undefined
        ? `amount "${get('amount')}" is not a decimal in ${currency} (at most ${minorUnit(currency)} digits after the point)`
        : !state
          ? `state "${get('state')}" is not one of ${states('commission').join(', ')}`
          : createdAt === undefined || paidAt === undefined
            ? 'created_at or paid_at is not an ISO 8601 time'
            : null;
  if (fault) return skip('commission', get('id'), `line ${line}: ${fault}`);
  return {
    kind: 'commission',
    id: get('id'),
    partnerId: get('partner_id'),
    referralId: get('referral_id') || null,
    amount: amount!,
    currency: currency!,
    state: state!,
    rejectReason: state === 'rejected' ? get('reject_reason') || 'rejected before the import' : null,
    payableAt: createdAt!,
    paidAt: state === 'paid' ? paidAt || createdAt! : null,
    createdAt: createdAt!,
  };
}

function* read<T>(path: string | undefined, kind: Kind, make: (get: Row, line: number) => Item<T>): Iterable<Item<T>> {
  for (const { line, get } of rows(path, kind)) {
    yield get('id') === '' ? skip(kind, `line ${line}`, `line ${line}: no id`) : make(get, line);
  }
}

export function csvSource(files: CsvFiles): Source {
  return {
    name: 'csv',
    title: 'CSV files',
    async *partners() {
      yield* read(files.partners, 'partner', partner);
    },
    async *referrals() {
      yield* read(files.referrals, 'referral', referral);
    },
    async *commissions() {
      yield* read(files.commissions, 'commission', commission);
    },
  };
}
