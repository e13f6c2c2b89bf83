import type { Plan } from '../../api/types';
import { formatMoney } from '../../ui/format';

/**
 * The plan catalogue as cards; the current plan is marked (and not offered by the upgrade form). Every card shows its
 * price as money, a free plan's too (its name already says it is free).
 */
export function PlanCards({ plans, currentPlan }: { plans: Plan[]; currentPlan: string }) {
  return (
    <ul className="plan-cards" aria-label="Plans">
      {plans.map((plan) => (
        <li key={plan.id} className={plan.id === currentPlan ? 'card plan-card current' : 'card plan-card'} data-testid={`plan-${plan.id}`}
          aria-current={plan.id === currentPlan ? 'true' : undefined}>
          <h3>{plan.name}</h3>
          <p className="plan-price">{formatMoney(plan.price)}</p>
          <p>{plan.credits} credits</p>
          {plan.id === currentPlan && <p className="badge badge-active">Current plan</p>}
        </li>
      ))}
    </ul>
  );
}
