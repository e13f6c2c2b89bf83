import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DataTable } from './DataTable';
import { Pager } from './Pager';
import { usePagedList, type CursorPage } from './usePagedList';

/** Three pages of one letter each, linked by cursors; the last page may claim more without a cursor to follow. */
const PAGES: Record<string, CursorPage<string>> = {
  first: { data: ['a'], has_more: true, next_cursor: 'c2' },
  c2: { data: ['b'], has_more: true, next_cursor: 'c3' },
  c3: { data: ['c'], has_more: true, next_cursor: null },
};

function Letters({ requested }: { requested: (string | undefined)[] }) {
  const list = usePagedList({
    queryKey: ['letters'],
    fetchPage: async (cursor) => {
      requested.push(cursor);
      return PAGES[cursor ?? 'first']!;
    },
  });
  return (
    <>
      <button type="button" onClick={list.toFirstPage}>
        Start again
      </button>
      <DataTable query={list.query} what="letters" caption="Letters" dataMode="shared" columns={['Letter']} rows={list.query.data?.data} rowKey={(letter) => letter}
        empty="No letters." renderRow={(letter) => (
          <tr>
            <td>{letter}</td>
          </tr>
        )}
        footer={<Pager label="Letter pages" page={list.pageNumber} {...list.pager} />} />
    </>
  );
}

function renderLetters() {
  const requested: (string | undefined)[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Letters requested={requested} />
    </QueryClientProvider>,
    { wrapper: MemoryRouter },
  );
  return { requested, user: userEvent.setup({ delay: null }) };
}

const shownLetter = () => screen.getAllByRole('cell').map((cell) => cell.textContent);

describe('usePagedList', () => {
  it('reads the next page with its cursor, goes back, and starts again at the first page', async () => {
    const { requested, user } = renderLetters();
    expect(await screen.findByRole('cell', { name: 'a' })).toBeTruthy();
    expect(screen.getByText('Page 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Previous page' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'b' })).toBeTruthy();
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect(requested).toEqual([undefined, 'c2']);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('cell', { name: 'c' })).toBeTruthy();
    // More is claimed but there is no cursor to follow: no "Next page" that would read the first page again.
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('cell', { name: 'b' })).toBeTruthy();
    expect(screen.getByText('Page 2')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(await screen.findByRole('cell', { name: 'a' })).toBeTruthy();
    expect(shownLetter()).toEqual(['a']);
    expect(screen.getByText('Page 1')).toBeTruthy();
    // Pages shown again are read again (they may have changed): the last read is the first page's, with no cursor.
    await waitFor(() => expect(requested).toEqual([undefined, 'c2', 'c3', 'c2', undefined]));
  });
});
