import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http';
import { CardForm } from './CardForm';
import { TextField } from './fields';

describe('CardForm', () => {
  it('is a named form with its heading; submitting calls onSubmit without reloading the page', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn((event: { defaultPrevented: boolean }) => event.defaultPrevented);
    render(
      <CardForm label="Plant a tree" title="Plant" dataMode="shared" error={null} onSubmit={onSubmit}>
        <button type="submit">Plant it</button>
      </CardForm>,
      { wrapper: MemoryRouter },
    );
    const form = screen.getByRole('form', { name: 'Plant a tree' });
    expect(within(form).getByRole('heading', { level: 2 }).textContent).toBe('Plant');
    expect(form.hasAttribute('novalidate')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Plant it' }));
    expect(onSubmit).toHaveReturnedWith(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a field error under its control and any other problem in the banner', () => {
    const error = new ApiError({
      status: 400,
      detail: 'Request validation failed',
      fields: [{ path: 'species', message: 'is required' }, { path: 'soil', message: 'is too dry' }],
      body: null,
    });
    render(
      <CardForm label="Plant a tree" title="Plant" dataMode="shared" error={error} fields={['species']} onSubmit={() => undefined}>
        <TextField label="Species" name="species" error={error} />
      </CardForm>,
      { wrapper: MemoryRouter },
    );
    expect(screen.getByTestId('error-species').textContent).toBe('is required');
    expect(screen.getByRole('alert').textContent).toBe('soil is too dry');
  });
});
