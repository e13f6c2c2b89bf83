import { createHash } from 'node:crypto';
import { COURIER_GONE_TEXT, ENDED_TEXT, ETA_TEXT, FINAL_ROUTE_LABEL, LEGEND_TEXT, REFRESH_TEXT, SANDBOX_COURIER_TEXT, STATUS_TEXT, TIMELINE_TEXT, UNKNOWN_VEHICLE_VALUES, VEHICLE_TYPE_TEXT } from './tracking-text';

/**
 * The page's only script, served from `/track/assets/tracking.js` (CSP `script-src 'self'`): polls the status JSON
 * every `poll_after_ms` (3 s) until the delivery is final and updates the page in place. Plain ES2017, no library.
 * The rendering mirrors tracking-page.ts, which draws the first state on the server.
 */
export const TRACKING_SCRIPT = `(function () {
  'use strict';
  var STATUS_TEXT = ${JSON.stringify(STATUS_TEXT)};
  var TIMELINE_TEXT = ${JSON.stringify(TIMELINE_TEXT)};
  var VEHICLE_TYPE_TEXT = ${JSON.stringify(VEHICLE_TYPE_TEXT)};
  var COURIER_GONE_TEXT = ${JSON.stringify(COURIER_GONE_TEXT)};
  var ETA_TEXT = ${JSON.stringify(ETA_TEXT)};
  var ENDED_TEXT = ${JSON.stringify(ENDED_TEXT)};
  var FINAL_ROUTE_LABEL = ${JSON.stringify(FINAL_ROUTE_LABEL)};
  var LEGEND_TEXT = ${JSON.stringify(LEGEND_TEXT)};
  var REFRESH_TEXT = ${JSON.stringify(REFRESH_TEXT)};
  var SANDBOX_COURIER_TEXT = ${JSON.stringify(SANDBOX_COURIER_TEXT)};
  var UNKNOWN_VEHICLE_VALUES = ${JSON.stringify(UNKNOWN_VEHICLE_VALUES)};
  var main = document.getElementById('tracking');
  if (!main) return;
  var statusUrl = main.getAttribute('data-status-url');
  var pollMs = Number(main.getAttribute('data-poll-ms')) || 3000;

  function byId(id) { return document.getElementById(id); }
  function setText(id, value) { var el = byId(id); if (el && el.textContent !== value) el.textContent = value; }
  function setAttrs(el, attrs) { for (var k in attrs) if (el.getAttribute(k) !== String(attrs[k])) el.setAttribute(k, String(attrs[k])); }
  function distanceText(m) { return m < 1000 ? (Math.round(m / 10) * 10) + ' m' : (m / 1000).toFixed(1) + ' km'; }
  function minutesText(s) { var m = Math.max(1, Math.round(s / 60)); return m + (m === 1 ? ' minute' : ' minutes'); }
  function timeText(iso) { return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); }
  function known(v) { return typeof v === 'string' && UNKNOWN_VEHICLE_VALUES.indexOf(v.trim().toLowerCase()) === -1; }
  function courierText(t) {
    var c = t.courier;
    if (!c) return t.final ? COURIER_GONE_TEXT : 'No courier yet.';
    if (t.test) return SANDBOX_COURIER_TEXT;
    var vehicle = [c.vehicle.color, c.vehicle.make, c.vehicle.model].filter(known).join(' ');
    var type = VEHICLE_TYPE_TEXT[c.vehicle.type] || c.vehicle.type;
    return [c.first_name, vehicle ? vehicle + ' (' + type + ')' : type, known(c.vehicle.plate) ? c.vehicle.plate : ''].filter(Boolean).join(' \u00b7 ');
  }
  function endedText(t) {
    var last = t.timeline[t.timeline.length - 1];
    return t.final && last ? (ENDED_TEXT[t.status] || 'Ended at ') + timeText(last.at) : '';
  }

  function render(t) {
    var status = byId('status');
    if (status.getAttribute('data-status') !== t.status) {
      status.setAttribute('data-status', t.status);
      status.textContent = STATUS_TEXT[t.status] || t.status;
    }
    main.setAttribute('data-status', t.status);
    main.setAttribute('data-final', String(t.final));
    setText('courier', courierText(t));
    setText('ended', endedText(t));
    setText('legend', t.final ? LEGEND_TEXT.final : LEGEND_TEXT.live);
    setText('refresh-note', t.final ? REFRESH_TEXT.final : REFRESH_TEXT.live);
    setText('distance', t.distance_meters === null ? (t.final ? '' : 'Position not available yet.') : distanceText(t.distance_meters) + ' from the drop-off area');
    setText('eta', t.eta_seconds === null ? '' : ETA_TEXT + minutesText(t.eta_seconds));
    var list = byId('timeline');
    while (list.firstChild) list.removeChild(list.firstChild);
    t.timeline.forEach(function (entry) {
      var li = document.createElement('li');
      var time = document.createElement('time');
      time.setAttribute('datetime', entry.at);
      time.textContent = timeText(entry.at);
      li.appendChild(time);
      li.appendChild(document.createTextNode(' ' + (TIMELINE_TEXT[entry.status] || entry.status)));
      list.appendChild(li);
    });
    drawRoute(t);
    showProof(t.proof_of_delivery);
    setText('updated', timeText(new Date().toISOString()));
  }

  function drawRoute(t) {
    var r = t.route;
    var at = t.status === 'delivered' ? r.dropoff : (r.courier || r.pickup);
    setAttrs(byId('route-done'), { x1: r.pickup.x, y1: r.pickup.y, x2: at.x, y2: at.y });
    setAttrs(byId('route-rest'), { x1: at.x, y1: at.y, x2: r.dropoff.x, y2: r.dropoff.y });
    setAttrs(byId('courier-dot'), { cx: at.x, cy: at.y, visibility: r.courier ? 'visible' : 'hidden' });
    byId('map').setAttribute('aria-label', t.final ? (FINAL_ROUTE_LABEL[t.status] || FINAL_ROUTE_LABEL.cancelled) : r.progress === null || t.distance_meters === null
      ? 'Route from the pick-up to the drop-off; no courier position shown'
      : 'Route from the pick-up to the drop-off; the courier is ' + Math.round(r.progress * 100) + '% of the way, ' + distanceText(t.distance_meters) + ' from the drop-off area');
  }

  function showProof(proof) {
    var section = byId('proof');
    if (!proof) { section.hidden = true; return; }
    setText('received-by', proof.received_by ? 'Received by ' + proof.received_by : '');
    var images = byId('proof-images');
    [['proof-photo', proof.photo_url, 'Photo taken by the courier at delivery'], ['proof-signature', proof.signature_url, "The recipient's signature"]].forEach(function (p) {
      if (!p[1] || byId(p[0])) return;
      var img = document.createElement('img');
      img.id = p[0];
      img.alt = p[2];
      img.src = p[1];
      images.appendChild(img);
    });
    section.hidden = false;
  }

  function schedule(ms) { setTimeout(poll, ms || pollMs); }
  function poll() {
    fetch(statusUrl, { cache: 'no-store', credentials: 'omit', headers: { Accept: 'application/json' } })
      .then(function (res) {
        if (res.status === 404) { setText('status', 'This tracking link is no longer valid.'); return null; }
        if (res.status === 410) { setText('status', 'This delivery has ended.'); return null; }
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(function (t) { if (!t) return; render(t); if (!t.final) schedule(t.poll_after_ms); })
      .catch(function () { schedule(pollMs); });
  }
  if (main.getAttribute('data-final') !== 'true') schedule(pollMs);
})();
`;

export const TRACKING_SCRIPT_ETAG = `"${createHash('sha256').update(TRACKING_SCRIPT).digest('base64url').slice(0, 16)}"`;
