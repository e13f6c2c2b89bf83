import { z } from 'zod';

export interface LatLng {
  lat: number;
  lng: number;
}

export const latLngSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});

/** A pick-up or drop-off: coordinates and an optional address. */
export const placeSchema = latLngSchema.extend({
  // `null` is 'no address', the same as leaving it out (rides and deliveries answer `address: null` then).
  address: z.string().trim().min(1).max(500).nullish().transform((address) => address ?? undefined),
});

/** A person's phone number as partners and operators type it (a passenger, a sender or recipient, a driver). */
export const phoneSchema = z.string().trim().regex(/^\+?[0-9 ()-]{5,20}$/, 'must be a phone number');

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle (haversine) distance in metres. */
export function greatCircleMeters(a: LatLng, b: LatLng): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Coordinates as answers show them (a proof of delivery's location, a tracking page's drop-off area). */
export const latLngResponse = latLngSchema.meta({ id: 'LatLng' });

/** A pick-up or drop-off as answers show it: `address` is `null` when none was given. */
export const placeResponse = latLngSchema.extend({
  address: z.string().max(500).nullable().optional(),
}).meta({ id: 'Place' });

/** A passenger, sender or recipient as answers show them. */
export const personResponse = z.object({
  name: z.string().min(1),
  phone: z.string().min(3),
}).meta({ id: 'Person' });
