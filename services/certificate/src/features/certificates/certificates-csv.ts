import { parse } from 'csv-parse/sync';
import { ValidationError } from '@platform/service-kit/errors';

const KNOWN_COLUMNS = ['recipient_name', 'program_title', 'issue_date', 'certificate_number', 'expires_on', 'template_id', 'recipient_email'];
/** A column `custom_fields.<key>` holds that custom field's value for each row. */
const CUSTOM_FIELD_COLUMN = /^custom_fields\.[a-z][a-z0-9_]{0,39}$/;

/**
 * A CSV upload with a header row becomes the same `{certificates: [...]}` body as the JSON form; empty cells are
 * absent fields. Unknown or missing columns are a 422 naming them.
 */
export function certificatesFromCsv(text: string): { certificates: Array<Record<string, unknown>> } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: false }) as string[][];
  } catch (error) {
    throw new ValidationError([{ path: '(csv)', message: `is not valid CSV: ${(error as Error).message.split('\n')[0]}` }]);
  }
  const [header, ...rows] = records;
  if (!header) throw new ValidationError([{ path: '(csv)', message: 'is empty: expected a header row and at least one certificate' }]);
  const columns = header.map((name) => name.toLowerCase());
  const unknown = columns.filter((name) => !KNOWN_COLUMNS.includes(name) && !CUSTOM_FIELD_COLUMN.test(name));
  const missing = ['recipient_name', 'program_title', 'issue_date'].filter((name) => !columns.includes(name));
  if (unknown.length || missing.length) {
    throw new ValidationError([
      ...unknown.map((name) => ({ path: `(header).${name}`, message: 'is not a known column' })),
      ...missing.map((name) => ({ path: `(header).${name}`, message: 'is a required column' })),
    ]);
  }
  return { certificates: rows.map((cells) => rowFromCells(columns, cells)) };
}

function rowFromCells(columns: string[], cells: string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const customFields: Record<string, string> = {};
  columns.forEach((name, i) => {
    if (!cells[i]) return;
    if (CUSTOM_FIELD_COLUMN.test(name)) customFields[name.slice('custom_fields.'.length)] = cells[i];
    else row[name] = cells[i];
  });
  if (Object.keys(customFields).length) row.custom_fields = customFields;
  return row;
}
