/**
 * A list as a table, the same everywhere: its loading and error states (optional), a caption, column headers, one row
 * per item and a row that says so when there is none, and what follows the table (a pager). Nothing is shown of the
 * table until the rows have loaded.
 *
 * Given each column's value (`values`), the table is also sortable by its column headers (aria-sort says how),
 * filterable with a text box (rows whose values contain the text), and, given `exportName`, exportable to CSV: the rows
 * as filtered and sorted, from every page when `loadAllRows` reads them through the list API, else the loaded ones.
 */
import { Fragment, useId, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { DataModeLabel, type DataScope } from '../mode/DataModeLabel';
import { csvFileName, downloadText, toCsv, type CsvCell } from './csv';
import { errorMessage } from './problems';
import { QueryState } from './QueryState';

/** The query's loading and error states, shown above the table (as "Loading {what}…" or "Could not load {what}: …"). */
type QueryStates = { query: { isLoading: boolean; error: unknown }; what: string } | { query?: undefined; what?: undefined };

/** One column's value of a row: what it sorts by, what the filter matches and what the CSV holds. */
export type ColumnValue<Row> = (row: Row) => CsvCell;

export type DataTableProps<Row> = QueryStates & {
  caption: ReactNode;
  /** The data it lists, shown above it ("Test data", "Live data", "Live data only", "Same in live and test"). */
  dataMode: DataScope;
  /** The column headers, left to right. */
  columns: readonly ReactNode[];
  /** The items; `undefined` while they have not loaded (then no table is shown). */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string | number;
  /** One item as its `<tr>`. */
  renderRow: (row: Row) => ReactNode;
  /** What the single row says when there are no items; without it an empty table has no rows. */
  empty?: ReactNode;
  testId?: string;
  /** Shown below the table once the rows have loaded, for example a pager. */
  footer?: ReactNode;
  /**
   * Each column's value, in the order of `columns` (`undefined` for a column of actions): makes the table sortable by
   * those headers and filterable by a text box.
   */
  values?: readonly (ColumnValue<Row> | undefined)[];
  /** With `values`, whether to show the filter box (default yes; off where the page has a search of its own). */
  filterable?: boolean;
  /** With `values`: an "Export CSV" button saving `{exportName}-{date}.csv`. */
  exportName?: string;
  /** Every item of the list (all its pages, through the list API), for the export; without it the loaded rows are exported. */
  loadAllRows?: () => Promise<readonly Row[]>;
};

type Sort = { column: number; direction: 'ascending' | 'descending' } | null;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Numbers by value, text naturally ("item 2" before "item 10"); empty values last whichever the direction. */
function compareCells(a: CsvCell, b: CsvCell): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** The rows whose values contain `filter` (any case), sorted as asked. */
export function arrangeRows<Row>(rows: readonly Row[], values: readonly (ColumnValue<Row> | undefined)[], filter: string, sort: Sort): Row[] {
  const needle = filter.trim().toLocaleLowerCase();
  const kept = needle
    ? rows.filter((row) => values.some((value) => value !== undefined && String(value(row) ?? '').toLocaleLowerCase().includes(needle)))
    : [...rows];
  const value = sort ? values[sort.column] : undefined;
  if (!sort || !value) return kept;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return kept
    .map((row, index) => ({ row, index, cell: value(row) }))
    .sort((x, y) => {
      const bothPresent = x.cell !== null && x.cell !== undefined && x.cell !== '' && y.cell !== null && y.cell !== undefined && y.cell !== '';
      return (bothPresent ? sign * compareCells(x.cell, y.cell) : compareCells(x.cell, y.cell)) || x.index - y.index;
    })
    .map(({ row }) => row);
}

/** A header's text for the CSV and the sort button's name. */
const headerText = (column: ReactNode, index: number) => (typeof column === 'string' || typeof column === 'number' ? String(column) : `Column ${index + 1}`);

export function DataTable<Row>({ caption, dataMode, columns, rows, rowKey, renderRow, empty, query, what, testId, footer, values, filterable = true, exportName, loadAllRows }: DataTableProps<Row>) {
  const captionId = useId();
  // `?filter=` opens the list filtered (the command palette opens a member this way).
  const [params] = useSearchParams();
  const [filter, setFilter] = useState(() => (values && filterable ? (params.get('filter') ?? '') : ''));
  const [sort, setSort] = useState<Sort>(null);
  const [exporting, setExporting] = useState(false);
  const [exported, setExported] = useState<{ ok: true; text: string } | { ok: false; text: string } | null>(null);
  const filterId = useId();
  const shown = useMemo(() => (rows && values ? arrangeRows(rows, values, filter, sort) : rows), [rows, values, filter, sort]);

  const toggleSort = (column: number) =>
    setSort((current) => (current?.column === column ? { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' } : { column, direction: 'ascending' }));

  const exportCsv = async () => {
    if (!values || !exportName || !rows) return;
    setExporting(true);
    setExported(null);
    try {
      const all = loadAllRows ? await loadAllRows() : rows;
      const kept = arrangeRows(all, values, filter, sort);
      const exportedColumns = values.map((value, index) => ({ value, header: headerText(columns[index], index) })).filter((column) => column.value !== undefined);
      const fileName = csvFileName(exportName);
      downloadText(fileName, toCsv(exportedColumns.map((column) => column.header), kept.map((row) => exportedColumns.map((column) => column.value!(row)))));
      setExported({ ok: true, text: `Exported ${kept.length} ${kept.length === 1 ? 'row' : 'rows'} to ${fileName}.` });
    } catch (error) {
      setExported({ ok: false, text: `Could not export: ${errorMessage(error)}` });
    } finally {
      setExporting(false);
    }
  };

  const filtering = Boolean(values && filter.trim());
  return (
    <>
      <p className="hint">
        <DataModeLabel scope={dataMode} />
      </p>
      {query && what !== undefined && <QueryState isLoading={query.isLoading} error={query.error} what={what} />}
      {rows && shown && (
        <>
          {values && (
            <div className="table-tools" data-testid={testId ? `${testId}-tools` : undefined}>
              {filterable && (
                <>
                  <label htmlFor={filterId}>Filter rows</label>
                  <input id={filterId} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="Text in any column" />
                </>
              )}
              {filtering && (
                <span className="muted" aria-live="polite">
                  {shown.length} of {rows.length} shown
                </span>
              )}
              {exportName && (
                <button type="button" onClick={() => void exportCsv()} disabled={exporting}>
                  {exporting ? 'Exporting…' : 'Export CSV'}
                </button>
              )}
              {exported && (
                <span role={exported.ok ? 'status' : 'alert'} className={exported.ok ? undefined : 'field-error'}>
                  {exported.text}
                </span>
              )}
            </div>
          )}
          {/* On a narrow screen the table scrolls sideways inside its wrapper, which keyboard users reach with Tab (named by the caption). */}
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={captionId}>
            <table data-testid={testId}>
              <caption id={captionId}>{caption}</caption>
              <thead>
                <tr>
                  {columns.map((column, index) => {
                    const sortable = values?.[index] !== undefined;
                    const direction = sort?.column === index ? sort.direction : undefined;
                    return (
                      <th key={index} scope="col" aria-sort={sortable ? (direction ?? 'none') : undefined}>
                        {sortable ? (
                          <button type="button" className="sort" onClick={() => toggleSort(index)}>
                            {column}
                            <span aria-hidden="true" className="sort-mark">
                              {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ' ↕'}
                            </span>
                          </button>
                        ) : (
                          column
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && empty !== undefined && (
                  <tr>
                    <td colSpan={columns.length}>{empty}</td>
                  </tr>
                )}
                {rows.length > 0 && shown.length === 0 && (
                  <tr>
                    <td colSpan={columns.length}>No rows on this page match “{filter.trim()}”. Clear the filter, or look on the other pages.</td>
                  </tr>
                )}
                {shown.map((row) => (
                  <Fragment key={rowKey(row)}>{renderRow(row)}</Fragment>
                ))}
              </tbody>
            </table>
          </div>
          {footer}
        </>
      )}
    </>
  );
}
