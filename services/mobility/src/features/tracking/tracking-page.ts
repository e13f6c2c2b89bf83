import { createHash } from 'node:crypto';
import { escapeHtml } from '@platform/service-kit';
import type { PublicTracking } from './tracking.presenter';
import { STATUS_TEXT, TIMELINE_TEXT, VEHICLE_TYPE_TEXT } from './tracking-text';

export const TRACKING_SCRIPT_PATH = '/track/assets/tracking.js';

/** The page's only style sheet, inline; the CSP allows exactly this text by its hash. Fluid from 320 px up. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2933;line-height:1.45}
header,main,footer{max-width:560px;margin:0 auto;padding:12px 16px}
header p{margin:0;font-weight:700;color:#1d4ed8}
h1{font-size:1.4rem;margin:4px 0 8px}
h2{font-size:1rem;margin:20px 0 6px}
section{background:#fff;border:1px solid #d3d7de;border-radius:8px;padding:12px 16px;margin:12px 0}
#status{font-size:1.15rem;font-weight:600;margin:0}
#status[data-status=delivered]{color:#0e5a1c}
#status[data-status=failed],#status[data-status=cancelled]{color:#8a1c1c}
#eta:empty,#distance:empty{display:none}
svg{display:block;width:100%;max-width:280px;height:auto;margin:8px auto}
.ring{fill:#eef2ff;stroke:#9aa5b1;stroke-dasharray:4 4}
.dropoff{fill:#1f2933}
.courier{fill:#1d4ed8;stroke:#fff;stroke-width:3}
.scale{font-size:11px;fill:#52606d}
.legend{font-size:.85rem;color:#52606d;margin:0 0 6px}
ol{margin:0;padding-left:20px}
time{font-variant-numeric:tabular-nums;color:#52606d}
footer{font-size:.85rem;color:#52606d}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Nothing from elsewhere: the script and the status JSON come from this origin only, the style is allowed by its hash,
 * no images, frames, forms or plugins.
 */
export const TRACKING_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');


function page(body: string, script: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Delivery tracking</title>
<style>${STYLE}</style>
${script ? `<script src="${TRACKING_SCRIPT_PATH}" defer></script>\n` : ''}</head>
<body>
<header><p>Delivery tracking</p></header>
${body}
</body>
</html>
`;
}

function distanceText(meters: number): string {
  return meters < 1000 ? `${Math.round(meters / 10) * 10} m` : `${(meters / 1000).toFixed(1)} km`;
}

const RINGS = [200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000];

/** The courier's dot relative to the drop-off (the centre), the ring being the next round distance: as the script draws it. */
function mapSvg(tracking: PublicTracking): string {
  const p = tracking.courier_location;
  const d = tracking.dropoff_area;
  let dot = { cx: '0', cy: '0', visibility: 'hidden' };
  let ring = RINGS[0]!;
  let label = 'Drop-off area; no courier position yet';
  if (p && tracking.distance_meters !== null) {
    ring = RINGS.find((r) => r >= tracking.distance_meters!) ?? RINGS[RINGS.length - 1]!;
    const north = (p.lat - d.lat) * 111_320;
    const east = (p.lng - d.lng) * 111_320 * Math.cos((d.lat * Math.PI) / 180);
    const k = (Math.min(1, tracking.distance_meters / ring) * 90) / (Math.hypot(north, east) || 1);
    dot = { cx: (east * k).toFixed(1), cy: (-north * k).toFixed(1), visibility: 'visible' };
    label = `Courier ${distanceText(tracking.distance_meters)} from the drop-off area`;
  }
  return `<svg id="map" viewBox="-100 -114 200 214" role="img" aria-label="${escapeHtml(label)}">
<circle class="ring" cx="0" cy="0" r="90"/>
<circle class="dropoff" cx="0" cy="0" r="6"/>
<circle id="courier-dot" class="courier" cx="${dot.cx}" cy="${dot.cy}" r="8" visibility="${dot.visibility}"/>
<text id="map-scale" class="scale" x="0" y="-96" text-anchor="middle">${distanceText(ring)}</text>
</svg>`;
}

/** The tracking page, drawn with the delivery's state now; the script keeps it current. Every value is escaped. */
export function trackingPageHtml(tracking: PublicTracking, statusUrl: string): string {
  const e = escapeHtml;
  const c = tracking.courier;
  const courier = c
    ? `${c.first_name} · ${[c.vehicle.color, c.vehicle.make, c.vehicle.model].join(' ')} (${VEHICLE_TYPE_TEXT[c.vehicle.type as keyof typeof VEHICLE_TYPE_TEXT] ?? c.vehicle.type}) · ${c.vehicle.plate}`
    : 'No courier yet.';
  const distance = tracking.distance_meters === null ? (tracking.final ? '' : 'Position not available yet.') : `${distanceText(tracking.distance_meters)} from the drop-off area`;
  const eta = tracking.eta_seconds === null ? '' : `Arriving in about ${Math.max(1, Math.round(tracking.eta_seconds / 60))} minute${Math.max(1, Math.round(tracking.eta_seconds / 60)) === 1 ? '' : 's'}`;
  const timeline = tracking.timeline
    .map((entry) => `<li><time datetime="${e(entry.at)}">${e(entry.at.slice(11, 16))} UTC</time> ${e(TIMELINE_TEXT[entry.status as keyof typeof TIMELINE_TEXT] ?? entry.status)}</li>`)
    .join('\n');
  return page(
    `<main id="tracking" data-status-url="${e(statusUrl)}" data-poll-ms="${tracking.poll_after_ms ?? ''}" data-final="${tracking.final}" data-status="${e(tracking.status)}">
<h1>Your delivery</h1>
<section aria-labelledby="status-heading">
<h2 id="status-heading">Status</h2>
<p id="status" role="status" aria-live="polite" data-status="${e(tracking.status)}">${e(STATUS_TEXT[tracking.status])}</p>
<p id="eta">${e(eta)}</p>
</section>
<section aria-labelledby="courier-heading">
<h2 id="courier-heading">Courier</h2>
<p id="courier">${e(courier)}</p>
</section>
<section aria-labelledby="map-heading">
<h2 id="map-heading">Where it is</h2>
${mapSvg(tracking)}
<p class="legend">Dark dot: the drop-off area. Blue dot: your courier. The circle's radius is marked above it.</p>
<p id="distance">${e(distance)}</p>
</section>
<section aria-labelledby="timeline-heading">
<h2 id="timeline-heading">History</h2>
<ol id="timeline">
${timeline}
</ol>
</section>
</main>
<footer><p>Last updated <span id="updated">${e(tracking.updated_at.slice(11, 16))} UTC</span>. This page refreshes by itself until the delivery is complete.</p></footer>`,
    !tracking.final,
  );
}

/** The 404 page for a token that is unknown or malformed: says so, loads nothing. */
export function trackingNotFoundHtml(): string {
  return page(
    `<main id="tracking">
<h1>Tracking link not found</h1>
<p>This link does not match a delivery. Check that you copied the whole link from your message.</p>
</main>`,
    false,
  );
}

/** The 410 page of a delivery that ended more than TRACKING_LINK_TTL_S ago: says so, shows nothing of it, loads nothing. */
export function trackingEndedHtml(): string {
  return page(
    `<main id="tracking">
<h1>This delivery has ended</h1>
<p>This tracking link is no longer active. If you have a question about your delivery, contact the sender.</p>
</main>`,
    false,
  );
}
