/** A rectangle on the page, in points from the top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The box grown by `by` on every side: what keeps a clearance around it. */
export function grown(box: Box, by: number): Box {
  return { x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by };
}

/** The smallest box holding all of them (null for none). */
export function unionOf(boxes: Box[]): Box | null {
  if (!boxes.length) return null;
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The largest scale (from 1 down to `minScale`, in steps) at which `boxAt(scale)` stays on the page and clear of every
 * obstacle, or null when even the smallest does not. `boxAt` must grow with the scale.
 */
export function largestFit(boxAt: (scale: number) => Box, obstacles: Box[], page: Box, minScale: number): number | null {
  const fits = (scale: number) => {
    const box = boxAt(scale);
    const onPage = box.x >= page.x && box.y >= page.y && box.x + box.width <= page.x + page.width && box.y + box.height <= page.y + page.height;
    return onPage && !obstacles.some((obstacle) => intersects(box, obstacle));
  };
  for (let scale = 1; scale >= minScale - 1e-9; scale -= 0.02) if (fits(scale)) return scale;
  return null;
}
