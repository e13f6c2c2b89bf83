import type { LatLng } from '../../platform/geo';

/** The route drawing's box, in SVG user units; the page's `<svg viewBox>` is the same. */
export const ROUTE_BOX = { width: 320, height: 160, padding: 24 } as const;

const METERS_PER_DEGREE = 111_320;

export interface RoutePoint {
  x: number;
  y: number;
}

export interface RouteDrawing {
  pickup: RoutePoint;
  dropoff: RoutePoint;
  /** The courier on the line, or null when no position is shown. */
  courier: RoutePoint | null;
  /** How far along the line the courier is, 0 (pick-up) to 1 (drop-off); null with no courier. */
  progress: number | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A point rounded to three decimals (about 100 m): the drop-off area the page names, and the ends of the route line it
 * draws, so the pick-up's coordinates are never given away.
 */
export const routeArea = (p: LatLng): LatLng => ({ lat: round3(p.lat), lng: round3(p.lng) });

/** Where `point` is, in metres east and south of `origin` (equirectangular: fine at a city's scale). */
function localMeters(point: LatLng, origin: LatLng): RoutePoint {
  return { x: (point.lng - origin.lng) * METERS_PER_DEGREE * Math.cos((origin.lat * Math.PI) / 180), y: -(point.lat - origin.lat) * METERS_PER_DEGREE };
}

/**
 * Projects the pick-up, the drop-off and the courier into ROUTE_BOX, north up, the line as large as the box allows and
 * centred. No map, no tiles: the page draws these points itself. The courier is placed on the straight line at its
 * nearest point (clamped between the ends), so the dot always sits on the route between pick-up and drop-off.
 */
export function projectRoute(pickup: LatLng, dropoff: LatLng, courier: LatLng | null): RouteDrawing {
  const origin = { lat: (pickup.lat + dropoff.lat) / 2, lng: (pickup.lng + dropoff.lng) / 2 };
  const a = localMeters(pickup, origin);
  const b = localMeters(dropoff, origin);
  const { width, height, padding } = ROUTE_BOX;
  const spanX = Math.max(Math.abs(b.x - a.x), 1);
  const spanY = Math.max(Math.abs(b.y - a.y), 1);
  const scale = Math.min((width - 2 * padding) / spanX, (height - 2 * padding) / spanY);
  const toBox = (p: RoutePoint): RoutePoint => ({ x: round1(width / 2 + p.x * scale), y: round1(height / 2 + p.y * scale) });

  let progress: number | null = null;
  let onLine: RoutePoint | null = null;
  if (courier) {
    const c = localMeters(courier, origin);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length2 = dx * dx + dy * dy;
    progress = length2 === 0 ? 0 : Math.min(1, Math.max(0, ((c.x - a.x) * dx + (c.y - a.y) * dy) / length2));
    onLine = toBox({ x: a.x + dx * progress, y: a.y + dy * progress });
    progress = Math.round(progress * 100) / 100;
  }
  return { pickup: toBox(a), dropoff: toBox(b), courier: onLine, progress };
}

/** The point `progress` of the way from `from` to `to` (negative: before `from`, on the line's extension). */
export function alongLine(from: LatLng, to: LatLng, progress: number): LatLng {
  return { lat: from.lat + (to.lat - from.lat) * progress, lng: from.lng + (to.lng - from.lng) * progress };
}
