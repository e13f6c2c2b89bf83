import pino from 'pino';

/**
 * Errors in log lines never carry SQL. knex prefixes a failed query's error message with the statement
 * (`<sql> - <Postgres message>`, bindings inlined), so a logged database error would print the whole statement in its
 * `message` and `stack`; a pool timeout carries `sql` and `bindings` as fields, and a Postgres error raised inside a
 * function names the statement in `where` / `internalQuery`; a constraint violation's `detail` quotes the row's values
 * (`Key (email)=(…)`). What stays: the Postgres message, its `code` (SQLSTATE), `constraint`, `table`, `column`,
 * `schema`, and the stack frames.
 */

/** How a statement knex put in front of an error message starts. */
const STATEMENT_START =
  /^\s*\(?\s*(with|select|insert|update|delete|merge|create|alter|drop|truncate|lock|copy|set|reset|show|begin|start|commit|rollback|savepoint|release|listen|unlisten|notify|do|call|explain|grant|revoke|comment|refresh|vacuum|analyze|reindex|cluster|prepare|execute|deallocate|declare|fetch|close|discard|values|table)\b/i;

/** Fields that hold a statement, its bindings, row values, or Postgres-internal noise. */
const DROPPED_FIELDS = ['sql', 'bindings', 'query', 'detail', 'internalQuery', 'internalPosition', 'where', 'position', 'file', 'line', 'routine', 'length'];

type Serialized = Record<string, unknown>;

/** pino's error serializer, then every statement removed from the result. Anything that is not an error passes through. */
export function serializeErrorWithoutSql(err: unknown): unknown {
  const serialized = pino.stdSerializers.err(err as Error) as unknown;
  if (serialized === err || serialized === null || typeof serialized !== 'object') return serialized;
  return scrub(serialized as Serialized, statementsIn(err, new Set()));
}

/** An error's message as it may be written as a log line's `msg`: without the statement knex put in front of it. */
export function messageWithoutSql(err: Error): string {
  return withoutStatements(err.message, statementsIn(err, new Set()));
}

/** The statements found in an error, its causes, aggregated errors and error-valued fields. */
function statementsIn(value: unknown, seen: Set<unknown>): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const found: string[] = [];
  const { message, sql } = value as { message?: unknown; sql?: unknown };
  if (typeof message === 'string' && STATEMENT_START.test(message)) {
    const end = message.lastIndexOf(' - ');
    if (end > 0) found.push(message.slice(0, end + 3));
  }
  if (typeof sql === 'string' && sql.trim().length > 0) found.push(sql);
  const nested = [(value as { cause?: unknown }).cause, ...(Array.isArray((value as { errors?: unknown }).errors) ? (value as { errors: unknown[] }).errors : [])];
  for (const key of Object.keys(value)) nested.push((value as Record<string, unknown>)[key]);
  for (const inner of nested) if (inner instanceof Error) found.push(...statementsIn(inner, seen));
  // Longest first, so a statement that contains another one is removed whole.
  return found.sort((a, b) => b.length - a.length);
}

function withoutStatements(text: string, statements: string[]): string {
  let result = text;
  for (const statement of statements) result = result.split(statement).join('');
  return result;
}

/** Works on pino's copy only: nested values are followed when pino serialized them too (causes' fields, aggregated errors). */
function scrub(serialized: Serialized, statements: string[]): Serialized {
  const isCopy = (value: unknown): value is Serialized => value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.getPrototypeOf(serialized);
  for (const field of DROPPED_FIELDS) delete serialized[field];
  for (const [key, value] of Object.entries(serialized)) {
    if (typeof value === 'string') serialized[key] = withoutStatements(value, statements);
    else if (isCopy(value)) scrub(value, statements);
    else if (key === 'aggregateErrors' && Array.isArray(value)) value.filter(isCopy).forEach((item) => scrub(item, statements));
  }
  return serialized;
}
