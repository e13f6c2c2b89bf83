import { createHash } from 'node:crypto';
import { STATUS_TEXT, TIMELINE_TEXT, VEHICLE_TYPE_TEXT } from './tracking-text';

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
  var RINGS = [200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000];
  var main = document.getElementById('tracking');
  if (!main) return;
  var statusUrl = main.getAttribute('data-status-url');
  var pollMs = Number(main.getAttribute('data-poll-ms')) || 3000;

  function byId(id) { return document.getElementById(id); }
  function setText(id, value) { var el = byId(id); if (el && el.textContent !== value) el.textContent = value; }
  function distanceText(m) { return m < 1000 ? (Math.round(m / 10) * 10) + ' m' : (m / 1000).toFixed(1) + ' km'; }
  function minutesText(s) { var m = Math.max(1, Math.round(s / 60)); return m + (m === 1 ? ' minute' : ' minutes'); }
  function timeText(iso) { return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); }

  function render(t) {
    var status = byId('status');
    if (status.getAttribute('data-status') !== t.status) {
      status.setAttribute('data-status', t.status);
      status.textContent = STATUS_TEXT[t.status] || t.status;
    }
    main.setAttribute('data-status', t.status);
    var c = t.courier;
    setText('courier', c ? c.first_name + ' \\u00b7 ' + [c.vehicle.color, c.vehicle.make, c.vehicle.model].join(' ') + ' (' + (VEHICLE_TYPE_TEXT[c.vehicle.type] || c.vehicle.type) + ') \\u00b7 ' + c.vehicle.plate : 'No courier yet.');
    setText('distance', t.distance_meters === null ? (t.final ? '' : 'Position not available yet.') : distanceText(t.distance_meters) + ' from the drop-off area');
    setText('eta', t.eta_seconds === null ? '' : 'Arriving in about ' + minutesText(t.eta_seconds));
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
    drawMap(t);
    setText('updated', timeText(new Date().toISOString()));
  }

  function drawMap(t) {
    var dot = byId('courier-dot');
    var map = byId('map');
    var scale = byId('map-scale');
    var p = t.courier_location;
    if (!p || t.distance_meters === null) {
      dot.setAttribute('visibility', 'hidden');
      map.setAttribute('aria-label', 'Drop-off area; no courier position yet');
      return;
    }
    var ring = RINGS[RINGS.length - 1];
    for (var i = 0; i < RINGS.length; i++) if (RINGS[i] >= t.distance_meters) { ring = RINGS[i]; break; }
    var d = t.dropoff_area;
    var north = (p.lat - d.lat) * 111320;
    var east = (p.lng - d.lng) * 111320 * Math.cos(d.lat * Math.PI / 180);
    var r = Math.sqrt(north * north + east * east) || 1;
    var k = Math.min(1, t.distance_meters / ring) * 90 / r;
    dot.setAttribute('cx', (east * k).toFixed(1));
    dot.setAttribute('cy', (-north * k).toFixed(1));
    dot.setAttribute('visibility', 'visible');
    scale.textContent = distanceText(ring);
    map.setAttribute('aria-label', 'Courier ' + distanceText(t.distance_meters) + ' from the drop-off area');
  }

  function schedule(ms) { setTimeout(poll, ms || pollMs); }
  function poll() {
    fetch(statusUrl, { cache: 'no-store', credentials: 'omit', headers: { Accept: 'application/json' } })
      .then(function (res) {
        if (res.status === 404) { setText('status', 'This tracking link is no longer valid.'); return null; }
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
