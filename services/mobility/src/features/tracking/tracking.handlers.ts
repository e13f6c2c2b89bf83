import { Router, type Response } from 'express';
import { ApiError } from '@platform/service-kit';
import { TRACKING_ICON, TRACKING_ICON_PATH, TRACKING_PAGE_CSP, TRACKING_SCRIPT_PATH, trackingEndedHtml, trackingNotFoundHtml, trackingPageHtml } from './tracking-page';
import { TRACKING_SCRIPT, TRACKING_SCRIPT_ETAG } from './tracking-script';
import type { StoredImage } from './tracking.repository';
import type { TrackingService } from './tracking.service';

/** Headers of every tracking answer: never cached or indexed, and the token in the URL is never sent on as a referrer. */
const PRIVATE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' };

function sendHtml(res: Response, status: number, html: string) {
  res.status(status).set({ ...PRIVATE, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': TRACKING_PAGE_CSP }).send(html);
}

/** A stored image as bytes of its checked type; nothing in it can run (`sandbox`, no sources) or be sniffed as another type. */
function sendImage(res: Response, image: StoredImage) {
  res.set({ ...PRIVATE, 'Content-Type': image.content_type, 'Content-Security-Policy': "default-src 'none'; sandbox", 'X-Content-Type-Options': 'nosniff' }).send(image.data);
}

/**
 * The public delivery tracking page (no key; the gateway limits it per address): `GET /track/{token}` is the HTML page,
 * `GET /track/{token}/status` the JSON it polls, `/track/{token}/logo` and `/track/{token}/proof/{photo|signature}` its
 * images, `GET /track/assets/tracking.js` its script.
 */
export function trackingRoutes(tracking: TrackingService): Router {
  const router = Router();

  router.get(TRACKING_SCRIPT_PATH, (req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', ETag: TRACKING_SCRIPT_ETAG });
    if (req.headers['if-none-match'] === TRACKING_SCRIPT_ETAG) res.status(304).end();
    else res.send(TRACKING_SCRIPT);
  });

  router.get(TRACKING_ICON_PATH, (_req, res) => {
    res.set({ 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': "default-src 'none'; sandbox" }).send(TRACKING_ICON);
  });

  router.get('/track/:token/status', async (req, res) => {
    res.set(PRIVATE).json(await tracking.track(req.params.token));
  });

  router.get('/track/:token/logo', async (req, res) => {
    sendImage(res, await tracking.logo(req.params.token));
  });

  router.get('/track/:token/proof/:kind', async (req, res) => {
    sendImage(res, await tracking.proofImage(req.params.token, req.params.kind));
  });

  router.get('/track/:token', async (req, res) => {
    try {
      const view = await tracking.track(req.params.token);
      sendHtml(res, 200, trackingPageHtml(view, `/track/${encodeURIComponent(req.params.token)}/status`));
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 410)) throw error;
      sendHtml(res, error.status, error.status === 410 ? trackingEndedHtml() : trackingNotFoundHtml());
    }
  });

  return router;
}
