import { RIDE_ACTIONS, RIDE_STATUSES, isTerminal, nextRideStatus, type RideAction, type RideStatus } from '../src/features/rides/ride-status';

/** The expected table, written out independently of the implementation: every cell not listed is refused. */
const ALLOWED: Record<string, RideStatus> = {
  'pending accept': 'accepted',
  'pending cancel': 'cancelled',
  'pending time_out': 'no_drivers_available',
  'accepted arrive': 'arrived',
  'accepted cancel': 'cancelled',
  'arrived start': 'in_progress',
  'arrived cancel': 'cancelled',
  'in_progress complete': 'completed',
  'in_progress cancel': 'cancelled',
};

const cells = RIDE_STATUSES.flatMap((status) => RIDE_ACTIONS.map((action) => [status, action] as [RideStatus, RideAction]));

describe('ride state machine', () => {
  it('covers every status × action cell', () => {
    expect(cells).toHaveLength(7 * 6);
  });

  it.each(cells)('%s + %s', (status, action) => {
    const expected = ALLOWED[`${status} ${action}`];
    if (expected) {
      expect(nextRideStatus(status, action)).toBe(expected);
    } else {
      let thrown: unknown;
      try {
        nextRideStatus(status, action);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ status: 409, code: 'invalid_ride_status' });
      expect((thrown as Error).message).toContain(status);
    }
  });

  it('has exactly three terminal statuses', () => {
    expect(RIDE_STATUSES.filter(isTerminal)).toEqual(['completed', 'cancelled', 'no_drivers_available']);
  });
});
