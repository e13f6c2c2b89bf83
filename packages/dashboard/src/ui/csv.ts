/**
 * Lists as CSV (RFC 4180): every field that needs it quoted, quotes doubled, CRLF line ends, and a UTF-8 byte order mark
 * so spreadsheet programs read accents right. A text cell that starts with `=`, `+`, `-`, `@` (or a tab or carriage
 * return) is prefixed with `'`, so a spreadsheet shows it as text instead of running it as a formula (CSV injection,
 * OWASP); numbers are written as they are.
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: neutralised if it could be read as a formula, quoted if it holds a comma, quote or line break. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line and one line per row. */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return `\uFEFF${[headers, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** `certificates` → `certificates-2026-11-29.csv` (the viewer's date). */
export function csvFileName(name: string, now = new Date()): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `${name}-${day}.csv`;
}

/** Saves `text` as a file through a temporary blob link (what the browser's download of the link does). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has its bytes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
