/**
 * A cursor-paged list read a page at a time: the current page's query, its number, and the pager's props. The cursors
 * of the pages before the current one are kept so "Previous page" goes back.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

/** A page in the services' list shape. */
export interface CursorPage<Item> {
  data: Item[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/** At most this many pages are read for one export (at the lists' page sizes, thousands of rows). */
export const MAX_EXPORT_PAGES = 200;

/** Every item of a cursor-paged list, page after page (for an export); stops after `maxPages`. */
export async function fetchAllPages<Item>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>, maxPages = MAX_EXPORT_PAGES): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const next = await fetchPage(cursor);
    items.push(...next.data);
    if (!next.has_more || !next.next_cursor) break;
    cursor = next.next_cursor;
  }
  return items;
}

export function usePagedList<Item>({ queryKey, fetchPage, keepPreviousPage = false }: {
  /** The query's key; the page's cursor is added to it. */
  queryKey: readonly unknown[];
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>;
  /** Keep showing the page read before while the next one loads (no "Loading" in between). */
  keepPreviousPage?: boolean;
}) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery({ queryKey: [...queryKey, cursor], queryFn: () => fetchPage(cursor), placeholderData: keepPreviousPage ? keepPreviousData : undefined });
  const nextCursor = query.data?.has_more ? query.data.next_cursor : undefined;
  return {
    query,
    /** 1 for the first page. */
    pageNumber: cursors.length,
    toFirstPage: () => setCursors([undefined]),
    /** Every page of the list, read through the same list API (for an export). */
    loadAll: () => fetchAllPages(fetchPage),
    pager: {
      hasPrevious: cursors.length > 1,
      hasNext: Boolean(nextCursor),
      onPrevious: () => setCursors(cursors.slice(0, -1)),
      onNext: () => setCursors([...cursors, nextCursor ?? undefined]),
    },
  };
}
