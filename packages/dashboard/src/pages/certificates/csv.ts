/**
 * Just enough CSV reading to show a rejected upload's rows beside their errors (RFC 4180 quotes, CRLF or LF);
 * the service parses the upload itself. Blank lines are skipped, as the service skips them.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    }
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((value) => value.trim() !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  row.push(cell);
  if (row.some((value) => value.trim() !== '')) rows.push(row);
  return rows;
}

export interface RejectedRow {
  /** 1-based line in the file, the header being line 1. */
  line: number;
  cells: Record<string, string>;
  errors: { column: string; message: string }[];
}

/**
 * Groups the 422's field errors (`certificates.<index>.<column>`, index counting data rows from 0) by row, with that
 * row's cells. Errors that name no row (for example a missing header column) are returned apart.
 */
export function rejectedRows(csv: string, problems: { path: string; message: string }[]): { rows: RejectedRow[]; general: { path: string; message: string }[] } {
  const [header = [], ...data] = parseCsv(csv);
  const byIndex = new Map<number, RejectedRow>();
  const general: { path: string; message: string }[] = [];
  for (const problem of problems) {
    const match = /^certificates\.(\d+)(?:\.(.+))?$/.exec(problem.path);
    if (!match) {
      general.push(problem);
      continue;
    }
    const index = Number(match[1]);
    let row = byIndex.get(index);
    if (!row) {
      const cells = Object.fromEntries(header.map((name, column) => [name.trim(), data[index]?.[column] ?? '']));
      row = { line: index + 2, cells, errors: [] };
      byIndex.set(index, row);
    }
    row.errors.push({ column: match[2] ?? '', message: problem.message });
  }
  return { rows: [...byIndex.values()].sort((a, b) => a.line - b.line), general };
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The CSV with `column` set to `value` on every row that leaves it empty (the column added when the header lacks it):
 * the batch form's template for the rows naming none. Rows keep their order, so the 422's row indexes still match.
 */
export function withDefaultColumn(csv: string, column: string, value: string): string {
  const [header, ...data] = parseCsv(csv);
  if (!header || !value) return csv;
  let index = header.findIndex((name) => name.trim() === column);
  if (index < 0) index = header.push(column) - 1;
  const rows = data.map((row) => {
    const cells = [...row];
    while (cells.length < header.length) cells.push('');
    if (!cells[index]!.trim()) cells[index] = value;
    return cells;
  });
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n')}\n`;
}
