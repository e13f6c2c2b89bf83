import type { LatLng } from '../../platform/geo';

/** A pick-up or drop-off as a partner sends it for a ride or a delivery. */
export interface PlaceInput extends LatLng {
  address?: string;
}

/** The pick-up and drop-off columns every job table (rides, deliveries) has. */
export interface JobPlaceColumns {
  pickup_lat: number;
  pickup_lng: number;
  pickup_address: string | null;
  dropoff_lat: number;
  dropoff_lng: number;
  dropoff_address: string | null;
}

/** Those columns from the partner's places. */
export function placeColumns(place: { pickup: PlaceInput; dropoff: PlaceInput }): JobPlaceColumns {
  return {
    pickup_lat: place.pickup.lat,
    pickup_lng: place.pickup.lng,
    pickup_address: place.pickup.address ?? null,
    dropoff_lat: place.dropoff.lat,
    dropoff_lng: place.dropoff.lng,
    dropoff_address: place.dropoff.address ?? null,
  };
}
