import type { Response } from 'express';
import { ApiError } from '@platform/service-kit/errors';
import type { Handlers } from '@platform/service-kit/operations';
import { TRACKING_ICON, TRACKING_PAGE_CSP, trackingEndedHtml, trackingNotFoundHtml, trackingPageHtml } from './tracking-page';
import { TRACKING_SCRIPT, TRACKING_SCRIPT_ETAG } from './tracking-script';
import type { trackingContract } from './tracking.contract';
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
 * images, `GET /track/assets/tracking.js` its script. The page, the images and the assets are written here as they are.
 */
export function trackingHandlers(tracking: TrackingService): Handlers<typeof trackingContract> {
  return {
    getTrackingScript: ({ req, res }) => {
      res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', ETag: TRACKING_SCRIPT_ETAG });
      if (req.headers['if-none-match'] === TRACKING_SCRIPT_ETAG) res.status(304).end();
      else res.send(TRACKING_SCRIPT);
    },

    getTrackingIcon: ({ res }) => {
      res.set({ 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': "default-src 'none'; sandbox" }).send(TRACKING_ICON);
    },

    // The private headers go on its refusals too (404, 410): set before the link is looked up.
    getTrackingStatus: async ({ params, res }) => {
      res.set(PRIVATE);
      return { status: 200, body: await tracking.track(params.token) };
    },

    getTrackingLogo: async ({ params, res }) => {
      sendImage(res, await tracking.logo(params.token));
    },

    // Any other kind is the service's 404, like an unknown token (the table describes the two kinds, and lets others through).
    getTrackingProofImage: async ({ params, res }) => {
      sendImage(res, await tracking.proofImage(params.token, params.kind));
    },

    getTrackingPage: async ({ params, res }) => {
      try {
        const view = await tracking.track(params.token);
        sendHtml(res, 200, trackingPageHtml(view, `/track/${encodeURIComponent(params.token)}/status`));
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 410)) throw error;
        sendHtml(res, error.status, error.status === 410 ? trackingEndedHtml() : trackingNotFoundHtml());
      }
    },
  };
}
