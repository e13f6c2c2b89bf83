import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './DataTable';
import { fetchAllPages } from './usePagedList';

interface Person {
  id: string;
  name: string;
  age: number | null;
  note: string;
}

const people: Person[] = [
  { id: 'p1', name: 'item 10', age: 30, note: '=cmd|calc' },
  { id: 'p2', name: 'Item 2', age: null, note: 'says "hi", twice' },
  { id: 'p3', name: 'alpha', age: 7, note: 'plain' },
];

const VALUES = [(p: Person) => p.name, (p: Person) => p.age, (p: Person) => p.note, undefined] as const;

function People({ rows, loadAllRows }: { rows: Person[]; loadAllRows?: () => Promise<Person[]> }) {
  return (
    <DataTable caption="People" dataMode="shared" columns={['Name', 'Age', 'Note', 'Actions']} rows={rows} rowKey={(p) => p.id} values={VALUES} exportName="people"
      loadAllRows={loadAllRows} empty="No people yet."
      renderRow={(p) => (
        <tr>
          <td>{p.name}</td>
          <td>{p.age ?? '—'}</td>
          <td>{p.note}</td>
          <td>
            <button type="button">Remove</button>
          </td>
        </tr>
      )} />
  );
}

const names = () => within(screen.getByRole('table', { name: 'People' })).getAllByRole('row').slice(1).map((row) => row.querySelector('td')!.textContent);

/** Captures what "Export CSV" saves: the file name and the blob's text. */
function captureDownloads() {
  const saved: { name: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal('URL', Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => undefined,
  }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    const text = new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    saved.push({ name: this.download, text });
  });
  return saved;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('DataTable: sort, filter, export', () => {
  it('sorts by a column header, ascending then descending, saying so with aria-sort; empty values stay last', async () => {
    const user = userEvent.setup();
    render(<People rows={people} />, { wrapper: MemoryRouter });
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    expect(header('Actions').getAttribute('aria-sort')).toBeNull();
    expect(within(header('Actions')).queryByRole('button')).toBeNull();

    await user.click(within(header('Name')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['alpha', 'Item 2', 'item 10']);
    await user.click(within(header('Name')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['item 10', 'Item 2', 'alpha']);

    await user.click(within(header('Age')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    expect(header('Age').getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['alpha', 'item 10', 'Item 2']);
    await user.click(within(header('Age')).getByRole('button'));
    expect(names()).toEqual(['item 10', 'alpha', 'Item 2']);
  });

  it('filters the rows by text in any column, and says when none match', async () => {
    const user = userEvent.setup();
    render(<People rows={people} />, { wrapper: MemoryRouter });
    await user.type(screen.getByLabelText('Filter rows'), 'ITEM');
    expect(names()).toEqual(['item 10', 'Item 2']);
    expect(screen.getByText('2 of 3 shown')).toBeTruthy();
    await user.clear(screen.getByLabelText('Filter rows'));
    await user.type(screen.getByLabelText('Filter rows'), 'zebra');
    expect(screen.getByRole('cell', { name: /No rows on this page match “zebra”/ }).getAttribute('colspan')).toBe('4');
  });

  it('opens filtered by the address\'s ?filter=', () => {
    render(
      <MemoryRouter initialEntries={['/people?filter=alpha']}>
        <People rows={people} />
      </MemoryRouter>,
    );
    expect((screen.getByLabelText('Filter rows') as HTMLInputElement).value).toBe('alpha');
    expect(names()).toEqual(['alpha']);
  });

  it('exports the loaded rows as filtered and sorted, escaped and guarded against formulas', async () => {
    const saved = captureDownloads();
    const user = userEvent.setup();
    render(<People rows={people} />, { wrapper: MemoryRouter });
    await user.click(within(screen.getByRole('columnheader', { name: /^Name/ })).getByRole('button'));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Exported 3 rows to people-\d{4}-\d{2}-\d{2}\.csv\.$/);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toMatch(/^people-\d{4}-\d{2}-\d{2}\.csv$/);
    // (FileReader's UTF-8 decoding drops the byte order mark; csv.test.ts checks it.)
    expect(await saved[0]!.text).toBe(`Name,Age,Note\r\nalpha,7,plain\r\nItem 2,,"says ""hi"", twice"\r\nitem 10,30,'=cmd|calc\r\n`);
  });

  it('exports every page through the list API when it can read them, and says when that fails', async () => {
    const saved = captureDownloads();
    const user = userEvent.setup();
    const pages: Record<string, { data: Person[]; has_more: boolean; next_cursor: string | null }> = {
      first: { data: people.slice(0, 2), has_more: true, next_cursor: 'c2' },
      c2: { data: [...people.slice(2), { id: 'p4', name: 'zed', age: 1, note: '@x' }], has_more: false, next_cursor: null },
    };
    const fetchPage = vi.fn(async (cursor: string | undefined) => pages[cursor ?? 'first']!);
    const { unmount } = render(<People rows={people.slice(0, 2)} loadAllRows={() => fetchAllPages(fetchPage)} />, { wrapper: MemoryRouter });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Exported 4 rows/);
    expect(fetchPage.mock.calls.map(([cursor]) => cursor)).toEqual([undefined, 'c2']);
    expect((await saved[0]!.text).split('\r\n').slice(1, -1)).toEqual(['item 10,30,\'=cmd|calc', 'Item 2,,"says ""hi"", twice"', 'alpha,7,plain', "zed,1,'@x"]);
    unmount();

    render(<People rows={people} loadAllRows={() => Promise.reject(new Error('the network is down'))} />, { wrapper: MemoryRouter });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not export: the network is down');
    expect(saved).toHaveLength(1);
  });
});
