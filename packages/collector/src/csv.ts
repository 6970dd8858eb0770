// CSV as PayPal's bulk upload reads it: no header, comma-separated, a field quoted when
// it holds a comma, a quote or a line break.

// People open payout files in spreadsheets, which run a cell that starts with one of
// these as a formula. OWASP's advice for CSV injection: prefix such a cell with a single
// quote, which spreadsheets show as text. Input already refuses e-mail addresses that
// start so; this catches what was stored before that rule, and any other cell.
const FORMULA_START = /^[=+\-@\t\r]/;

export function formatCsv(rows: readonly (readonly string[])[]): string {
  const field = (raw: string) => {
    const v = FORMULA_START.test(raw) ? `'${raw}` : raw;
    return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  };
  return rows.map((row) => row.map(field).join(',') + '\n').join('');
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      (row = []), (field = '');
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}
