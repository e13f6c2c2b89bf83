/** Why a trip ended without being completed, in words, and what happens next: the dashboard shows these as given. */

export interface TripOutcome {
  code: string;
  summary: string;
  next_step: string;
}

const minutes = (seconds: number) => {
  const m = Math.max(1, Math.round(seconds / 60));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

export interface OutcomeInput {
  kind: 'ride' | 'delivery';
  status: string;
  failure_reason?: string | null;
  cancelled_by?: string | null;
  livemode: boolean;
}

/** The outcome of a failed, cancelled or unassigned trip; null while it is under way or once it is completed or delivered. */
export function tripOutcome(trip: OutcomeInput, dispatchTimeoutSeconds: number): TripOutcome | null {
  const noun = trip.kind === 'ride' ? 'ride' : 'delivery';
  const again = trip.kind === 'ride' ? 'request the ride again' : 'create the delivery again';
  if (trip.status === 'no_drivers_available') {
    return {
      code: 'no_drivers_available',
      summary: `No driver accepted within ${minutes(dispatchTimeoutSeconds)}.`,
      next_step: `Nothing was charged. ${capitalize(again)}, at a quieter time or from a pick-up where drivers are online.`,
    };
  }
  if (trip.status === 'failed') {
    if (trip.failure_reason === 'no_couriers_available') {
      return {
        code: 'no_couriers_available',
        summary: `No courier accepted within ${minutes(dispatchTimeoutSeconds)}.`,
        next_step: 'Nothing was charged; create the delivery again or widen the area (a pick-up where couriers are online).',
      };
    }
    if (trip.failure_reason === 'sandbox_expired') {
      return {
        code: 'sandbox_expired',
        summary: 'Nobody moved this test delivery for 24 hours after its pick-up, so the sandbox ended it.',
        next_step: 'Nothing was charged (test data). Create a new test delivery and advance it with the sandbox API.',
      };
    }
    return {
      code: 'courier_reported_failure',
      summary: `The courier could not complete the delivery: “${trip.failure_reason ?? 'no reason given'}”.`,
      next_step: 'Contact the recipient or the sender about the parcel; create the delivery again to send it once more.',
    };
  }
  if (trip.status === 'cancelled') {
    const by = trip.cancelled_by ?? 'partner';
    if (by === 'system') {
      return {
        code: 'cancelled_by_system',
        summary: `Nobody moved this test ${noun} for 24 hours, so the sandbox cancelled it.`,
        next_step: `Nothing was charged (test data). Create a new test ${noun} and advance it with the sandbox API.`,
      };
    }
    if (by === 'driver') {
      return { code: 'cancelled_by_driver', summary: 'The driver cancelled the ride.', next_step: `Nothing more happens to this ride; ${again} to find another driver.` };
    }
    return { code: 'cancelled_by_partner', summary: `Your organization cancelled the ${noun} through the API.`, next_step: `Nothing more happens to this ${noun}; ${again} if it is still needed.` };
  }
  return null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
