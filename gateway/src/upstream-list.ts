import { z } from 'zod';
import { isHttpUrl } from '@platform/service-kit/config';

/** The URLs of one upstream's replicas: `CERTIFICATE_URL=http://127.0.0.1:3001,http://127.0.0.1:3011`. */
export function upstreamList(value: string): string[] {
  return value
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}


/** An upstream variable: one http(s) URL, or several separated by commas (replicas the gateway takes in turn). */
export function upstreamListSchema(fallback: string) {
  return z
    .string()
    .default(fallback)
    .refine((value) => upstreamList(value).length > 0 && upstreamList(value).every(isHttpUrl), { message: 'must be a URL, or several separated by commas' });
}

/** Round robin: each call answers the next replica's index, starting from the first. */
export function roundRobin(count: number): () => number {
  let next = 0;
  return () => {
    const index = next;
    next = (next + 1) % count;
    return index;
  };
}
