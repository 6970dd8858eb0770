// The payout file's CSV: PayPal's layout, and no cell a spreadsheet would run.

import { describe, expect, it } from 'vitest';
import { formatCsv, parseCsv } from '../../packages/collector/src/csv.js';

describe('formatCsv', () => {
  it('quotes a cell holding a comma, a quote or a line break', () => {
    expect(formatCsv([['a,b', 'say "hi"', 'two\nlines', 'plain']])).toBe('"a,b","say ""hi""","two\nlines",plain\n');
  });

  it('neutralises a cell a spreadsheet would read as a formula with a leading single quote (OWASP)', () => {
    const cells = ['=HYPERLINK("http://evil.test")@x.y', '+cmd|calc!A0@x.y', '-2+3', '@SUM(A1)', '\t=1', '\r=1', 'ok@x.y', 'a=b', '12.34'];
    const text = formatCsv([cells]);
    expect(parseCsv(text)).toEqual([
      ["'=HYPERLINK(\"http://evil.test\")@x.y", "'+cmd|calc!A0@x.y", "'-2+3", "'@SUM(A1)", "'\t=1", "'\r=1", 'ok@x.y', 'a=b', '12.34'],
    ]);
    for (const line of text.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) expect(line).not.toMatch(/^"?[=+\-@\t\r]/);
  });

  it('reads back what it wrote', () => {
    const rows = [['pay@x.test', '9.80', 'USD', '', 'Commission payout, partner p, batch b', 'PAYPAL']];
    expect(parseCsv(formatCsv(rows))).toEqual(rows);
    expect(parseCsv(formatCsv(rows).replace(/\n/g, '\r\n'))).toEqual(rows);
  });
});
