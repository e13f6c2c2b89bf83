/**
 * The designer's live preview: the body is sent to the service's renderer once the user has stopped typing for
 * PREVIEW_DEBOUNCE_MS; a request still running when the body changes is aborted (an older answer never replaces a
 * newer one). The image is an object URL, revoked when a newer one replaces it and when the designer goes away.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/http';

export const PREVIEW_DEBOUNCE_MS = 400;
/** A preview the service is too busy to draw now (503, its organization's renders in flight) is asked again this often, at most this many times. */
export const PREVIEW_BUSY_RETRY_MS = 1000;
export const PREVIEW_BUSY_RETRIES = 3;

const isBusy = (failure: unknown) => failure instanceof ApiError && failure.status === 503;

/** Draws, asking again a little later while the service answers that it is busy (an aborted draw is not asked again). */
async function drawWhenFree(draw: () => Promise<Blob>, signal: AbortSignal): Promise<Blob> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await draw();
    } catch (failure) {
      if (!isBusy(failure) || attempt >= PREVIEW_BUSY_RETRIES || signal.aborted) throw failure;
      await new Promise((resolve) => setTimeout(resolve, PREVIEW_BUSY_RETRY_MS));
      if (signal.aborted) throw failure;
    }
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

export function useLivePreview(body: unknown, draw: (body: unknown, signal: AbortSignal) => Promise<Blob>): LivePreview {
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
