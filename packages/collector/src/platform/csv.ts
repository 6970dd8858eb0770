// CSV for spreadsheets, in one place for PayPal's bulk upload (no header, LF) and the
// dashboard's "Download CSV" (a header row, CRLF), which imports this file by relative
// path (rollup.config.mjs builds it into the web apps): a field is quoted when it holds a
// comma, a quote or a line break. `tally import csv` reads files with parseCsvRows, which
// knows the line each row starts on.

// People open these files in spreadsheets, which run a cell that starts with one of
// = + - @ as a formula. OWASP's advice for CSV injection: prefix such a cell with a single
// quote, which spreadsheets show as text; a tab, CR or LF first is prefixed too. Blanks and
// line breaks before a formula sign count as nothing: an importer that trims them, or
// splits a leading line break off, would otherwise leave the sign first.
const FORMULA_START = /^\s*[=+\-@]|^[\t\r\n]/;

/** One cell: neutralised if a spreadsheet would run it, then quoted if it must be. */
export function csvCell(raw: string): string {
  const v = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Rows as CSV text, every line (the last too) ended by `eol`. */
export function formatCsv(rows: readonly (readonly string[])[], eol: '\n' | '\r\n' = '\n'): string {
  return rows.map((row) => row.map(csvCell).join(',') + eol).join('');
}

/** A parsed row and the line of the file it starts on (the first is 1). */
export interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * The rows of `text` with the line each starts on, counting every line break (LF, CRLF,
 * CR), those inside a quoted cell too; a row whose cells are all empty is left out.
 */
export function parseCsvRows(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    row.push(field);
    if (row.some((f) => f !== '')) rows.push({ line: start, cells: row });
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
      start = ++line;
      continue;
    } else field += c;
    // A line break inside a quoted cell: the row goes on, on the next line.
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
  }
  end();
  return rows;
}

export function parseCsv(text: string): string[][] {
  return parseCsvRows(text).map((r) => r.cells);
}
