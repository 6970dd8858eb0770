// The payout file's CSV: PayPal's layout, and no cell a spreadsheet would run.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsv, parseCsv, parseCsvRows } from '../../packages/collector/src/platform/csv.js';

describe('formatCsv', () => {
  it('quotes a cell holding a comma, a quote or a line break', () => {
    expect(formatCsv([['a,b', 'say "hi"', 'two\nlines', 'plain']])).toBe('"a,b","say ""hi""","two\nlines",plain\n');
  });

  it('neutralises a cell a spreadsheet would read as a formula with a leading single quote (OWASP)', () => {
    const cells = ['=HYPERLINK("http://evil.test")@x.y', '+cmd|calc!A0@x.y', '-2+3', '@SUM(A1)', '\t=1', '\r=1', 'ok@x.y', 'a=b', '12.34'];
    const text = formatCsv([cells]);
    expect(parseCsv(text)).toEqual([
      ['\'=HYPERLINK("http://evil.test")@x.y', "'+cmd|calc!A0@x.y", "'-2+3", "'@SUM(A1)", "'\t=1", "'\r=1", 'ok@x.y', 'a=b', '12.34'],
    ]);
    for (const line of text.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) expect(line).not.toMatch(/^"?[=+\-@\t\r]/);
  });

  it('reads back what it wrote', () => {
    const rows = [['pay@x.test', '9.80', 'USD', '', 'Commission payout, partner p, batch b', 'PAYPAL']];
    expect(parseCsv(formatCsv(rows))).toEqual(rows);
    expect(parseCsv(formatCsv(rows).replace(/\n/g, '\r\n'))).toEqual(rows);
  });
});

describe('parseCsvRows', () => {
  it('gives each row the line it starts on, counting blank lines and the line breaks inside quoted cells (LF, CRLF, CR)', () => {
    const text = 'h1,h2\n\na,"one\r\ntwo"\r\n,\rb,"x\ry\nz"\n\n\nc,d';
    expect(parseCsvRows(text)).toEqual([
      { line: 1, cells: ['h1', 'h2'] },
      { line: 3, cells: ['a', 'one\r\ntwo'] },
      { line: 6, cells: ['b', 'x\ry\nz'] },
      { line: 11, cells: ['c', 'd'] },
    ]);
    expect(parseCsv(text)).toEqual(parseCsvRows(text).map((r) => r.cells));
  });
});

// The same rules make the dashboard's "Download CSV" (packages/web/src/common/ui.tsx
// imports formatCsv from csv.ts): a header row and CRLF line ends there.
describe('formatCsv, for any cell', () => {
  // What a spreadsheet may run: a formula sign, maybe after blanks or line breaks it
  // drops, or a tab, CR or LF first.
  const RUNS = /^\s*[=+\-@]|^[\t\r\n]/;
  const tricky = fc.string({
    unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ' ', '"', ',', "'", 'a', '1', '.', 'é'),
    maxLength: 8,
  });
  const cell = fc.oneof(tricky, fc.string({ maxLength: 12 }));
  // parseCsv skips a row whose cells are all empty, as a spreadsheet shows no such row.
  const rowsOf = (c: fc.Arbitrary<string>) =>
    fc
      .array(fc.array(c, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 })
      .filter((rows) => rows.every((r) => r.some((x) => x !== '')));
  const eol = fc.constantFrom('\n', '\r\n');

  it('makes no cell, once parsed, that a spreadsheet would run; a risky one gains a leading quote and nothing else', () => {
    fc.assert(
      fc.property(rowsOf(cell), eol, (rows, end) => {
        const parsed = parseCsv(formatCsv(rows, end));
        expect(parsed).toEqual(rows.map((r) => r.map((c) => (RUNS.test(c) ? `'${c}` : c))));
        for (const c of parsed.flat()) expect(c).not.toMatch(RUNS);
      }),
      { numRuns: 500 },
    );
  });

  it('reads back what it wrote, for cells a spreadsheet would not run', () => {
    fc.assert(
      fc.property(rowsOf(cell.filter((c) => !RUNS.test(c))), eol, (rows, end) => {
        expect(parseCsv(formatCsv(rows, end))).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });

  it('neutralises a formula behind a leading line break or blank, and ends lines as asked', () => {
    expect(formatCsv([['Name'], ['\n=HYPERLINK("http://evil.test")'], [' =1+2'], ['x\r=2+3']], '\r\n')).toBe(
      'Name\r\n"\'\n=HYPERLINK(""http://evil.test"")"\r\n\' =1+2\r\n"x\r=2+3"\r\n',
    );
  });
});
