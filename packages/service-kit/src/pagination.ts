import { z } from 'zod';
import { isIdOf } from './ids';

/** Every list answers `{data, has_more, next_cursor}`; `next_cursor` is passed back as `cursor` for the next page. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export const MAX_PAGE_LIMIT = 100;

export interface PageQueryOptions {
  defaultLimit: number;
  /** When the cursor is an id of this prefix, a cursor of another shape is a 422 before any query. */
  idPrefix?: string;
}

/** The fields of every list's query: `limit` 1 to 100, `cursor` the `next_cursor` of the previous page. */
export function pageQueryFields(options: PageQueryOptions) {
  const cursor = options.idPrefix
    ? z.string().refine((value) => isIdOf(options.idPrefix!, value), 'is not a cursor from this list')
    : z.string().max(100);
  return {
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(options.defaultLimit),
    cursor: cursor.optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  };
}

/** `?limit=&cursor=` as one schema, named `id` in the OpenAPI description (`x-query-schema`). */
export function pageQuerySchema(options: PageQueryOptions & { id: string }) {
  return z.object(pageQueryFields(options)).meta({ id: options.id, examples: [{ limit: 20 }] });
}

/**
 * `Page<T>` as a response schema: `data` of `item`, `has_more`, and `next_cursor` (with the list's own words on how to
 * pass it back, where it has any). Name it with `.meta({ id })` where the description names the list.
 */
export function pageSchema<Item extends z.ZodType>(item: Item, options: { cursorDescription?: string } = {}) {
  const nextCursor = z.string().nullable();
  return z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: options.cursorDescription === undefined ? nextCursor : nextCursor.meta({ description: options.cursorDescription }),
  });
}

/** One page from `limit + 1` rows read in list order: the extra row only says that more follow. */
export function pageOf<R extends { id: string }, T>(rows: R[], limit: number, present: (row: R) => T): Page<T> {
  const shown = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data: shown.map(present), has_more: hasMore, next_cursor: hasMore ? shown[shown.length - 1]!.id : null };
}
