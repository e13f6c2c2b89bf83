import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { DataTable } from './DataTable';

interface Fruit {
  id: string;
  name: string;
}

function FruitTable({ rows, query, footer }: { rows: Fruit[] | undefined; query?: { isLoading: boolean; error: unknown }; footer?: string }) {
  return (
    <DataTable query={query ?? { isLoading: false, error: null }} what="fruit" caption="Fruit" dataMode="current" columns={['Name', 'ID']} rows={rows} rowKey={(fruit) => fruit.id} empty="No fruit yet."
      testId="fruit" footer={footer && <p>{footer}</p>}
      renderRow={(fruit) => (
        <tr data-testid={`fruit-${fruit.id}`}>
          <td>{fruit.name}</td>
          <td>{fruit.id}</td>
        </tr>
      )} />
  );
}

describe('DataTable', () => {
  it('says it is loading and shows no table until the rows are there', () => {
    render(<FruitTable rows={undefined} query={{ isLoading: true, error: null }} footer="pager" />, { wrapper: MemoryRouter });
    expect(screen.getByRole('status').textContent).toBe('Loading fruit…');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('pager')).toBeNull();
  });

  it('says what could not be loaded', () => {
    render(<FruitTable rows={undefined} query={{ isLoading: false, error: new Error('the network is down') }} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('alert').textContent).toBe('Could not load fruit: the network is down');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says when the service does not offer the list', () => {
    const error = new ApiError({ status: 404, code: 'route_not_found', detail: 'No such route', fields: [], body: null });
    render(<FruitTable rows={undefined} query={{ isLoading: false, error }} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('status').textContent).toBe('The service does not offer fruit to the dashboard yet.');
  });

  it('shows the caption, one header per column and a row per item, then the footer', () => {
    render(<FruitTable rows={[{ id: 'f1', name: 'Apple' }, { id: 'f2', name: 'Pear' }]} query={{ isLoading: false, error: null }} footer="pager" />, { wrapper: MemoryRouter });
    const table = screen.getByRole('table', { name: 'Fruit' });
    expect(table.getAttribute('data-testid')).toBe('fruit');
    expect(within(table).getAllByRole('columnheader').map((header) => [header.textContent, header.getAttribute('scope')])).toEqual([['Name', 'col'], ['ID', 'col']]);
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Applef1', 'Pearf2']);
    expect(screen.queryByText('No fruit yet.')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('pager')).toBeTruthy();
  });

  it('says so in one row across every column when there are no items', () => {
    render(<FruitTable rows={[]} />, { wrapper: MemoryRouter });
    const cell = screen.getByRole('cell', { name: 'No fruit yet.' });
    expect(cell.getAttribute('colspan')).toBe('2');
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2);
  });

  it('has no empty row when it is given no empty text', () => {
    render(<DataTable caption="Fruit" dataMode="shared" columns={['Name']} rows={[] as Fruit[]} rowKey={(fruit) => fruit.id} renderRow={() => null} />, { wrapper: MemoryRouter });
    expect(within(screen.getByRole('table', { name: 'Fruit' })).getAllByRole('row')).toHaveLength(1);
  });
});
