/**
 * The designer's live preview: the body is sent to the service's renderer once the user has stopped typing for
 * PREVIEW_DEBOUNCE_MS; a request still running when the body changes is aborted (an older answer never replaces a
 * newer one). While the service is still drawing (202) the same body is sent again after its `Retry-After`. The image
 * is an object URL, revoked when a newer one replaces it and when the designer goes away.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/http';
import type { PreviewAnswer } from './templates-api';

export const PREVIEW_DEBOUNCE_MS = 400;
/** A preview the service cannot queue now (503, its render queue is full) is asked again this often, at most this many times. */
export const PREVIEW_BUSY_RETRY_MS = 1000;
export const PREVIEW_BUSY_RETRIES = 3;
/** A preview still being drawn (202) is asked again after its `Retry-After`, waiting at most this long, at most this many times. */
export const PREVIEW_RENDERING_MAX_WAIT_MS = 5000;
export const PREVIEW_RENDERING_RETRIES = 60;

const isBusy = (failure: unknown) => failure instanceof ApiError && failure.status === 503;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Draws, sending the body again while the service is drawing it (202, after `Retry-After`, capped) or cannot queue it
 * (503, a few times); an aborted draw is not asked again.
 */
async function drawWhenFree(draw: () => Promise<PreviewAnswer>, signal: AbortSignal): Promise<Blob> {
  let refusals = 0;
  for (let rendering = 0; ; ) {
    let answer: PreviewAnswer;
    try {
      answer = await draw();
    } catch (failure) {
      if (!isBusy(failure) || refusals++ >= PREVIEW_BUSY_RETRIES || signal.aborted) throw failure;
      await pause(PREVIEW_BUSY_RETRY_MS);
      if (signal.aborted) throw failure;
      continue;
    }
    if ('image' in answer) return answer.image;
    if (rendering++ >= PREVIEW_RENDERING_RETRIES) throw new Error('The preview is taking too long to draw; change the design to try again.');
    await pause(Math.min(answer.retryAfterSeconds * 1000, PREVIEW_RENDERING_MAX_WAIT_MS));
    if (signal.aborted) throw new DOMException('The preview was replaced', 'AbortError');
  }
}

export interface LivePreview {
  /** The latest drawing, kept while the next one is asked for. */
  image: string | null;
  /** A drawing is being asked for (or waits for the typing to stop). */
  loading: boolean;
  /** Why the latest drawing failed (a 422's field errors are shown beside their fields); null after a success. */
  error: unknown;
}

export function useLivePreview(body: unknown, draw: (body: unknown, signal: AbortSignal) => Promise<PreviewAnswer>): LivePreview {
  const [image, setImage] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const drawRef = useRef(draw);
  drawRef.current = draw;
  const key = JSON.stringify(body);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      drawWhenFree(() => drawRef.current(JSON.parse(key) as unknown, controller.signal), controller.signal)
        .then((blob) => {
          if (controller.signal.aborted) return;
          const url = URL.createObjectURL(blob);
          setImage((previous) => {
            if (previous) URL.revokeObjectURL(previous);
            return url;
          });
          setError(null);
          setLoading(false);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          setError(failure);
          setLoading(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  // The last image is revoked when the designer unmounts.
  const latest = useRef<string | null>(null);
  latest.current = image;
  useEffect(() => () => {
    if (latest.current) URL.revokeObjectURL(latest.current);
  }, []);

  return { image, loading, error };
}
