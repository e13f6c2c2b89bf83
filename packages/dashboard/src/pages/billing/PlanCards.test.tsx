import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../ui/format';
import { PlanCards } from './PlanCards';

const plans = [
  { id: 'free', name: 'Free', price: { amount: 0, currency: 'NGN' }, credits: 10 },
  { id: 'starter', name: 'Starter', price: { amount: 500000, currency: 'NGN' }, credits: 100 },
];

describe('plan cards', () => {
  it('names the free plan once and shows its price as money, like every other card', () => {
    render(<PlanCards plans={plans} currentPlan="free" />);
    const free = screen.getByTestId('plan-free');
    expect(within(free).getByRole('heading', { level: 3 }).textContent).toBe('Free');
    expect(free.textContent?.match(/Free/g)).toHaveLength(1);
    expect(free.querySelector('.plan-price')?.textContent).toBe(formatMoney({ amount: 0, currency: 'NGN' }));
    expect(free.querySelector('.plan-price')?.textContent).toMatch(/0/);
    expect(screen.getByTestId('plan-starter').querySelector('.plan-price')?.textContent).toBe(formatMoney({ amount: 500000, currency: 'NGN' }));
  });
});
