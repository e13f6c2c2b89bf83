import { createHash } from 'node:crypto';
import { escapeHtml } from '@platform/service-kit/html';
import type { PublicTracking } from './tracking.presenter';
import { ROUTE_BOX } from './tracking-route';
import { COURIER_GONE_TEXT, DEFAULT_BRAND_COLOR, ENDED_TEXT, ETA_TEXT, FINAL_ROUTE_LABEL, LEGEND_TEXT, REFRESH_TEXT, SANDBOX_COURIER_TEXT, STATUS_TEXT, TEST_MARKER_TEXT, TIMELINE_TEXT, UNKNOWN_VEHICLE_VALUES, VEHICLE_TYPE_TEXT } from './tracking-text';

export const TRACKING_SCRIPT_PATH = '/track/assets/tracking.js';
export const TRACKING_ICON_PATH = '/track/assets/icon.svg';

/** The page's icon (a browser asks for one; from this origin, not a 404): a parcel. Served as an image, never run. */
export const TRACKING_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="4" width="12" height="10" rx="1" fill="#a0703c"/><path d="M2 7h12M8 4v10" stroke="#5c3d1e"/></svg>';

/** The page's only style sheet, inline; the CSP allows exactly this text by its hash. Fluid from 320 px up. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2933;line-height:1.45}
header,main,footer{max-width:560px;margin:0 auto;padding:12px 16px}
header{display:flex;align-items:center;gap:12px}
header img{height:40px;width:auto;max-width:120px;object-fit:contain}
header p{margin:0}
.sender{font-weight:700;font-size:1.05rem}
.kind{font-size:.85rem;color:#52606d}
.brand-bar{display:block;width:100%;height:6px}
h1{font-size:1.4rem;margin:4px 0 8px}
h2{font-size:1rem;margin:20px 0 6px}
section{background:#fff;border:1px solid #d3d7de;border-radius:8px;padding:12px 16px;margin:12px 0}
.test-marker{margin:8px 0;padding:8px 12px;border:2px dashed #7c2d12;border-radius:8px;background:#fff7ed;color:#7c2d12;font-weight:600}
.test-marker strong{display:inline-block;margin-right:6px;padding:0 6px;border-radius:4px;background:#7c2d12;color:#fff;letter-spacing:.08em}
#status{font-size:1.15rem;font-weight:600;margin:0}
#status[data-status=delivered]{color:#0e5a1c}
#status[data-status=failed],#status[data-status=cancelled]{color:#8a1c1c}
#eta:empty,#ended:empty,#distance:empty,#received-by:empty{display:none}
#map{display:block;width:100%;height:auto;margin:8px auto}
.route-rest{stroke-width:4;stroke-dasharray:2 8;stroke-linecap:round;opacity:.55}
.route-done{stroke-width:5;stroke-linecap:round}
#tracking[data-final=true] .route-rest{stroke-dasharray:none;stroke-width:5;opacity:1;stroke:#7b8794}
.pickup{fill:#fff;stroke:#1f2933;stroke-width:3}
.dropoff{fill:#1f2933}
.courier{stroke:#fff;stroke-width:3}
.place{font-size:12px;fill:#1f2933}
.legend{font-size:.85rem;color:#52606d;margin:0 0 6px}
#proof img{display:block;max-width:100%;height:auto;margin:8px 0;border:1px solid #d3d7de;border-radius:4px;background:#fff}
ol{margin:0;padding-left:20px}
time{font-variant-numeric:tabular-nums;color:#52606d}
footer{font-size:.85rem;color:#52606d}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Nothing from elsewhere: the script, the status JSON and the images (the partner's logo, the proof of delivery) come
 * from this origin only, the style is allowed by its hash; no frames, forms, fonts or plugins.
 */
export const TRACKING_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface PageOptions {
  script: boolean;
  partner?: PublicTracking['partner'];
}

function headerHtml(partner: PublicTracking['partner'] | undefined): string {
  const e = escapeHtml;
  const color = partner?.brand_color ?? DEFAULT_BRAND_COLOR;
  // The name is text beside the logo, so the logo itself is decorative (empty alt); alone, it says whose it is.
  const logo = partner?.logo_url ? `<img id="partner-logo" src="${e(partner.logo_url)}" alt="${partner.name ? '' : 'Sender&#39;s logo'}" height="40">` : '';
  const name = partner?.name ? `<p class="sender" id="partner-name">${e(partner.name)}</p>` : '';
  return `<svg class="brand-bar" aria-hidden="true" focusable="false" preserveAspectRatio="none" viewBox="0 0 10 1"><rect width="10" height="1" fill="${e(color)}"/></svg>
<header>${logo}<div>${name}<p class="kind">Delivery tracking</p></div></header>`;
}

function page(body: string, { script, partner }: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="${TRACKING_ICON_PATH}" type="image/svg+xml">
<title>${partner?.name ? `${escapeHtml(partner.name)}: delivery tracking` : 'Delivery tracking'}</title>
<style>${STYLE}</style>
${script ? `<script src="${TRACKING_SCRIPT_PATH}" defer></script>\n` : ''}</head>
<body>
${headerHtml(partner)}
${body}
</body>
</html>
`;
}

function distanceText(meters: number): string {
  return meters < 1000 ? `${Math.round(meters / 10) * 10} m` : `${(meters / 1000).toFixed(1)} km`;
}

/** The drawing's text alternative; the script writes the same words. */
export function routeLabel(tracking: Pick<PublicTracking, 'route' | 'distance_meters' | 'final' | 'status'>): string {
  const { progress } = tracking.route;
  if (tracking.final) return FINAL_ROUTE_LABEL[tracking.status] ?? FINAL_ROUTE_LABEL.cancelled!;
  if (progress === null || tracking.distance_meters === null) return 'Route from the pick-up to the drop-off; no courier position shown';
  return `Route from the pick-up to the drop-off; the courier is ${Math.round(progress * 100)}% of the way, ${distanceText(tracking.distance_meters)} from the drop-off area`;
}

/**
 * The route: a straight line from the pick-up (hollow dot) to the drop-off (dark dot), the courier's dot on it; the
 * part still ahead dotted. Delivered, the whole line is solid in the partner's colour; failed or cancelled, solid grey.
 */
function routeSvg(tracking: PublicTracking): string {
  const { pickup, dropoff, courier } = tracking.route;
  const color = escapeHtml(tracking.partner.brand_color ?? DEFAULT_BRAND_COLOR);
  const at = tracking.status === 'delivered' ? dropoff : (courier ?? pickup);
  const labelY = (y: number, other: number) => (y <= other ? Math.max(12, y - 12) : Math.min(ROUTE_BOX.height - 4, y + 20));
  return `<svg id="map" viewBox="0 0 ${ROUTE_BOX.width} ${ROUTE_BOX.height}" role="img" aria-label="${escapeHtml(routeLabel(tracking))}">
<line id="route-rest" class="route-rest" stroke="${color}" x1="${at.x}" y1="${at.y}" x2="${dropoff.x}" y2="${dropoff.y}"/>
<line id="route-done" class="route-done" stroke="${color}" x1="${pickup.x}" y1="${pickup.y}" x2="${at.x}" y2="${at.y}"/>
<circle id="pickup-dot" class="pickup" cx="${pickup.x}" cy="${pickup.y}" r="7"/>
<circle id="dropoff-dot" class="dropoff" cx="${dropoff.x}" cy="${dropoff.y}" r="7"/>
<text class="place" x="${pickup.x}" y="${labelY(pickup.y, dropoff.y)}" text-anchor="middle">Pick-up</text>
<text class="place" x="${dropoff.x}" y="${labelY(dropoff.y, pickup.y)}" text-anchor="middle">Drop-off</text>
<circle id="courier-dot" class="courier" fill="${color}" cx="${at.x}" cy="${at.y}" r="9" visibility="${courier ? 'visible' : 'hidden'}"/>
</svg>`;
}

function proofHtml(tracking: PublicTracking): string {
  const e = escapeHtml;
  const proof = tracking.proof_of_delivery;
  const images = [
    proof?.photo_url ? `<img id="proof-photo" src="${e(proof.photo_url)}" alt="Photo taken by the courier at delivery">` : '',
    proof?.signature_url ? `<img id="proof-signature" src="${e(proof.signature_url)}" alt="The recipient's signature">` : '',
  ].join('');
  return `<section id="proof" aria-labelledby="proof-heading"${proof ? '' : ' hidden'}>
<h2 id="proof-heading">Proof of delivery</h2>
<p id="received-by">${proof?.received_by ? `Received by ${e(proof.received_by)}` : ''}</p>
<div id="proof-images">${images}</div>
</section>`;
}

/** The time of day a delivery's status was entered, as the page first draws it (the script then shows the viewer's time). */
const utcTime = (iso: string) => `${iso.slice(11, 16)} UTC`;

/** "Delivered at 14:05 UTC" once final (the time of its last status), else empty. */
export function endedText(tracking: Pick<PublicTracking, 'final' | 'status' | 'timeline'>): string {
  const last = tracking.timeline[tracking.timeline.length - 1];
  if (!tracking.final || !last) return '';
  return `${ENDED_TEXT[tracking.status] ?? 'Ended at '}${utcTime(last.at)}`;
}

const isKnown = (value: string | null | undefined): value is string => typeof value === 'string' && !UNKNOWN_VEHICLE_VALUES.includes(value.trim().toLowerCase());

/**
 * The courier line: first name, vehicle and plate, leaving out what the fleet left unknown; the sandbox courier of a
 * test delivery is named as such, with no vehicle (it has none).
 */
export function courierText(tracking: Pick<PublicTracking, 'courier' | 'final' | 'test'>): string {
  const c = tracking.courier;
  if (!c) return tracking.final ? COURIER_GONE_TEXT : 'No courier yet.';
  if (tracking.test) return SANDBOX_COURIER_TEXT;
  const vehicle = [c.vehicle.color, c.vehicle.make, c.vehicle.model].filter(isKnown).join(' ');
  const type = VEHICLE_TYPE_TEXT[c.vehicle.type as keyof typeof VEHICLE_TYPE_TEXT] ?? c.vehicle.type;
  return [c.first_name, vehicle ? `${vehicle} (${type})` : type, isKnown(c.vehicle.plate) ? c.vehicle.plate : ''].filter(Boolean).join(' · ');
}

export function etaText(seconds: number | null): string {
  if (seconds === null) return '';
  const minutes = Math.max(1, Math.round(seconds / 60));
  return `${ETA_TEXT}${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The tracking page, drawn with the delivery's state now; the script keeps it current. Every value is escaped. */
export function trackingPageHtml(tracking: PublicTracking, statusUrl: string): string {
  const e = escapeHtml;
  const courier = courierText(tracking);
  const mode = tracking.final ? 'final' : 'live';
  const distance = tracking.distance_meters === null ? (tracking.final ? '' : 'Position not available yet.') : `${distanceText(tracking.distance_meters)} from the drop-off area`;
  const timeline = tracking.timeline
    .map((entry) => `<li><time datetime="${e(entry.at)}">${e(utcTime(entry.at))}</time> ${e(TIMELINE_TEXT[entry.status as keyof typeof TIMELINE_TEXT] ?? entry.status)}</li>`)
    .join('\n');
  const testMarker = tracking.test ? `<p id="test-marker" class="test-marker" role="note"><strong>TEST</strong> ${e(TEST_MARKER_TEXT.replace(/^TEST /, ''))}</p>\n` : '';
  return page(
    `<main id="tracking" data-status-url="${e(statusUrl)}" data-poll-ms="${tracking.poll_after_ms ?? ''}" data-final="${tracking.final}" data-status="${e(tracking.status)}">
<h1>Your delivery</h1>
${testMarker}<section aria-labelledby="status-heading">
<h2 id="status-heading">Status</h2>
<p id="status" role="status" aria-live="polite" data-status="${e(tracking.status)}">${e(STATUS_TEXT[tracking.status])}</p>
<p id="eta">${e(etaText(tracking.eta_seconds))}</p>
<p id="ended">${e(endedText(tracking))}</p>
</section>
<section aria-labelledby="courier-heading">
<h2 id="courier-heading">Courier</h2>
<p id="courier">${e(courier)}</p>
</section>
<section aria-labelledby="map-heading">
<h2 id="map-heading">Where it is</h2>
${routeSvg(tracking)}
<p class="legend" id="legend">${e(LEGEND_TEXT[mode])}</p>
<p id="distance">${e(distance)}</p>
</section>
${proofHtml(tracking)}
<section aria-labelledby="timeline-heading">
<h2 id="timeline-heading">History</h2>
<ol id="timeline">
${timeline}
</ol>
</section>
</main>
<footer><p>Last updated <span id="updated">${e(utcTime(tracking.updated_at))}</span>. <span id="refresh-note">${e(REFRESH_TEXT[mode])}</span></p></footer>`,
    { script: !tracking.final, partner: tracking.partner },
  );
}

/** The 404 page for a token that is unknown or malformed: says so, loads nothing. */
export function trackingNotFoundHtml(): string {
  return page(
    `<main id="tracking">
<h1>Tracking link not found</h1>
<p>This link does not match a delivery. Check that you copied the whole link from your message.</p>
</main>`,
    { script: false },
  );
}

/** The 410 page of a delivery that ended more than TRACKING_LINK_TTL_S ago: says so, shows nothing of it, loads nothing. */
export function trackingEndedHtml(): string {
  return page(
    `<main id="tracking">
<h1>This delivery has ended</h1>
<p>This tracking link is no longer active. If you have a question about your delivery, contact the sender.</p>
</main>`,
    { script: false },
  );
}
