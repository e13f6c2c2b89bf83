/**
 * A list as a table, the same everywhere: its loading and error states (optional), a caption, column headers, one row
 * per item and a row that says so when there is none, and what follows the table (a pager). Nothing is shown of the
 * table until the rows have loaded.
 */
import { Fragment, useId, type ReactNode } from 'react';
import { DataModeLabel, type DataScope } from '../mode/DataModeLabel';
import { QueryState } from './QueryState';

/** The query's loading and error states, shown above the table (as "Loading {what}…" or "Could not load {what}: …"). */
type QueryStates = { query: { isLoading: boolean; error: unknown }; what: string } | { query?: undefined; what?: undefined };

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
};

export function DataTable<Row>({ caption, dataMode, columns, rows, rowKey, renderRow, empty, query, what, testId, footer }: DataTableProps<Row>) {
  const captionId = useId();
  return (
    <>
      <p className="hint">
        <DataModeLabel scope={dataMode} />
      </p>
      {query && what !== undefined && <QueryState isLoading={query.isLoading} error={query.error} what={what} />}
      {rows && (
        <>
          {/* On a narrow screen the table scrolls sideways inside its wrapper, which keyboard users reach with Tab (named by the caption). */}
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={captionId}>
            <table data-testid={testId}>
              <caption id={captionId}>{caption}</caption>
              <thead>
                <tr>
                  {columns.map((column, index) => (
                    <th key={index} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && empty !== undefined && (
                  <tr>
                    <td colSpan={columns.length}>{empty}</td>
                  </tr>
                )}
                {rows.map((row) => (
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
