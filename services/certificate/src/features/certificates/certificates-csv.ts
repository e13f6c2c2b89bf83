import { parse } from 'csv-parse/sync';
import { ValidationError } from '@platform/service-kit';

const KNOWN_COLUMNS = ['recipient_name', 'program_title', 'issue_date', 'certificate_number', 'expires_on'];

/**
 * A CSV upload with a header row becomes the same `{certificates: [...]}` body as the JSON form; empty cells are
 * absent fields. Unknown or missing columns are a 422 naming them.
 */
export function certificatesFromCsv(text: string): { certificates: Array<Record<string, string>> } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: false }) as string[][];
  } catch (error) {
    throw new ValidationError([{ path: '(csv)', message: `is not valid CSV: ${(error as Error).message.split('\n')[0]}` }]);
  }
  const [header, ...rows] = records;
  if (!header) throw new ValidationError([{ path: '(csv)', message: 'is empty: expected a header row and at least one certificate' }]);
  const columns = header.map((name) => name.toLowerCase());
  const unknown = columns.filter((name) => !KNOWN_COLUMNS.includes(name));
  const missing = ['recipient_name', 'program_title', 'issue_date'].filter((name) => !columns.includes(name));
  if (unknown.length || missing.length) {
    throw new ValidationError([
      ...unknown.map((name) => ({ path: `(header).${name}`, message: 'is not a known column' })),
      ...missing.map((name) => ({ path: `(header).${name}`, message: 'is a required column' })),
    ]);
  }
  return {
    certificates: rows.map((cells) => Object.fromEntries(columns.flatMap((name, i) => (cells[i] ? [[name, cells[i]]] : [])))),
  };
}
