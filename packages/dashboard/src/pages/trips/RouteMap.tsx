/** The trip's route as a small inline drawing: pick-up → drop-off, and the driver's or courier's last known position. No map tiles. */

interface Point {
  lat: number;
  lng: number;
}

export interface RouteMapProps {
  pickup: Point & { address?: string | null };
  dropoff: Point & { address?: string | null };
  /** The last known position of the driver or courier, when there is one. */
  position?: (Point & { label: string }) | null;
  /** Whether the trip reached its drop-off (the line is drawn solid) or not (dashed). */
  completed: boolean;
}

const BOX = { width: 320, height: 180, padding: 28 } as const;
const METERS_PER_DEGREE = 111_320;

/** North-up, equirectangular around the points' middle (fine at a city's scale), scaled to fit the box. */
function project(points: Point[]) {
  const lat0 = points.reduce((sum, p) => sum + p.lat, 0) / points.length;
  const lng0 = points.reduce((sum, p) => sum + p.lng, 0) / points.length;
  const local = points.map((p) => ({ x: (p.lng - lng0) * METERS_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180), y: -(p.lat - lat0) * METERS_PER_DEGREE }));
  const xs = local.map((p) => p.x);
  const ys = local.map((p) => p.y);
  const spanX = Math.max(Math.max(...xs) - Math.min(...xs), 1);
  const spanY = Math.max(Math.max(...ys) - Math.min(...ys), 1);
  const scale = Math.min((BOX.width - 2 * BOX.padding) / spanX, (BOX.height - 2 * BOX.padding) / spanY);
  const midX = (Math.max(...xs) + Math.min(...xs)) / 2;
  const midY = (Math.max(...ys) + Math.min(...ys)) / 2;
  return local.map((p) => ({ x: Math.round((BOX.width / 2 + (p.x - midX) * scale) * 10) / 10, y: Math.round((BOX.height / 2 + (p.y - midY) * scale) * 10) / 10 }));
}

const kilometres = (a: Point, b: Point) => {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return (2 * 6_371_000 * Math.asin(Math.sqrt(h))) / 1000;
};

export const placeName = (p: Point & { address?: string | null }) => p.address ?? `${p.lat}, ${p.lng}`;

export function RouteMap({ pickup, dropoff, position, completed }: RouteMapProps) {
  const [a, b, c] = project(position ? [pickup, dropoff, position] : [pickup, dropoff]);
  const label = `Route from the pick-up (${placeName(pickup)}) to the drop-off (${placeName(dropoff)}), ${kilometres(pickup, dropoff).toFixed(1)} km in a straight line${
    position ? `; ${position.label}` : ''
  }`;
  const labelY = (y: number, other: number) => (y <= other ? Math.max(12, y - 12) : Math.min(BOX.height - 4, y + 20));
  return (
    <figure className="route-map">
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-label={label} data-testid="route-map">
        <line className={completed ? 'route-line done' : 'route-line'} x1={a!.x} y1={a!.y} x2={b!.x} y2={b!.y} />
        <circle data-testid="route-pickup" className="route-pickup" cx={a!.x} cy={a!.y} r={7} />
        <circle data-testid="route-dropoff" className="route-dropoff" cx={b!.x} cy={b!.y} r={7} />
        <text className="route-label" x={a!.x} y={labelY(a!.y, b!.y)} textAnchor="middle">
          Pick-up
        </text>
        <text className="route-label" x={b!.x} y={labelY(b!.y, a!.y)} textAnchor="middle">
          Drop-off
        </text>
        {c && <circle data-testid="route-position" className="route-position" cx={c.x} cy={c.y} r={8} />}
      </svg>
      <figcaption className="muted">
        Hollow dot: pick-up. Dark dot: drop-off.{position ? ` Blue dot: ${position.label}.` : ''} The line is straight, not the road.
      </figcaption>
    </figure>
  );
}
