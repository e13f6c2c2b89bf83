import type { LatLng } from '../../geo';

/** A pick-up or drop-off as a partner sends it for a ride or a delivery. */
export interface PlaceInput extends LatLng {
  address?: string;
}
