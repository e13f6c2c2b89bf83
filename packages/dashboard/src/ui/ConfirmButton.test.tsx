import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmButton } from './ConfirmButton';

describe('ConfirmButton', () => {
  it('asks first and acts only on yes', async () => {
    const user = userEvent.setup({ delay: null });
    const onConfirm = vi.fn();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    render(
      <ConfirmButton className="danger" question="Delete Apple?" onConfirm={onConfirm}>
        Delete
      </ConfirmButton>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('danger');
    await user.click(button);
    expect(confirm).toHaveBeenLastCalledWith('Delete Apple?');
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
