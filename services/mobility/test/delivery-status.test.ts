import {
  DELIVERY_ACTIONS,
  DELIVERY_STATUSES,
  isTerminalDelivery,
  nextDeliveryStatus,
  type DeliveryAction,
  type DeliveryStatus,
} from '../src/features/deliveries/delivery-status';

/** The expected table, written out independently of the implementation: every cell not listed is refused. */
const ALLOWED: Record<string, DeliveryStatus> = {
  'pending assign': 'courier_assigned',
  'pending cancel': 'cancelled',
  'pending time_out': 'failed',
  'courier_assigned pick_up': 'picked_up',
  'courier_assigned fail': 'failed',
  'courier_assigned cancel': 'cancelled',
  'picked_up deliver': 'delivered',
  'picked_up fail': 'failed',
};

const cells = DELIVERY_STATUSES.flatMap((status) => DELIVERY_ACTIONS.map((action) => [status, action] as [DeliveryStatus, DeliveryAction]));

describe('delivery state machine', () => {
  it('covers every status × action cell', () => {
    expect(cells).toHaveLength(6 * 6);
  });

  it.each(cells)('%s + %s', (status, action) => {
    const expected = ALLOWED[`${status} ${action}`];
    if (expected) {
      expect(nextDeliveryStatus(status, action)).toBe(expected);
    } else {
      let thrown: unknown;
      try {
        nextDeliveryStatus(status, action);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ status: 409, code: 'invalid_delivery_status' });
      expect((thrown as Error).message).toContain(status);
    }
  });

  it('has exactly three terminal statuses', () => {
    expect(DELIVERY_STATUSES.filter(isTerminalDelivery)).toEqual(['delivered', 'failed', 'cancelled']);
  });
});
