/**
 * Where the designer's blocks sit, as fractions of the page (0 = left or top edge, 1 = right or bottom edge), and the
 * rules for moving them by hand: a 1 % grid, snapping to the page's centre lines and to the other blocks' edges, and
 * the template schema's bounds (x + width ≤ 1, each part's own width limits).
 */
import type { CertificateSchemas, Template } from '../../api/types';
import { DESIGNER_LAYOUT } from './template-form';

export type BlockId = 'logo' | 'title' | 'recipient' | 'details' | 'signature' | 'qr_code';
/** Top-left corner and width (the QR code's `size`), as fractions of the page. */
export interface Placement {
  x: number;
  y: number;
  width: number;
}
export type Layout = Record<BlockId, Placement>;
/** A snapping guide: a vertical line at `x = at` or a horizontal one at `y = at`. */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
}
/** The page in points (only its proportions count here). */
export interface PageSize {
  width: number;
  height: number;
}

export const BLOCK_IDS: readonly BlockId[] = ['logo', 'title', 'recipient', 'details', 'signature', 'qr_code'];
export const TEXT_BLOCKS: readonly BlockId[] = ['title', 'recipient', 'details'];
export const BLOCK_NAMES: Record<BlockId, string> = {
  logo: 'Logo',
  title: 'Title line',
  recipient: 'Recipient line',
  details: 'Details line',
  signature: 'Signature',
  qr_code: 'QR code',
};
/** The width limits of templates.schema.ts (text blocks: more than 0; kept at 5 % here so the handle stays usable). */
const WIDTH_BOUNDS: Record<BlockId, [number, number]> = {
  logo: [0.02, 1],
  title: [0.05, 1],
  recipient: [0.05, 1],
  details: [0.05, 1],
  signature: [0.05, 0.5],
  qr_code: [0.05, 0.5],
};
/** The font size of each designer line (template-form.ts), for the height of its handle. */
const LINE_SIZES: Partial<Record<BlockId, number>> = { title: 36, recipient: 30, details: 18 };
const LINE_HEIGHT = 1.25;
/** A snap takes hold within this distance (a fraction of the page). */
export const SNAP_DISTANCE = 0.015;
export const GRID = 0.01;

const PAGE_POINTS = { A4: [595.28, 841.89], letter: [612, 792] } as const;

export function pageSize(pageSizeName: string, orientation: string): PageSize {
  const [short, long] = PAGE_POINTS[pageSizeName === 'letter' ? 'letter' : 'A4'];
  return orientation === 'portrait' ? { width: short, height: long } : { width: long, height: short };
}

/** Two decimals: what the grid allows, without floating-point noise (0.30000000000000004). */
const round = (value: number) => Math.round(value / GRID) * GRID;
const tidy = (value: number) => Math.round(value * 10_000) / 10_000;
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

export function defaultLayout(): Layout {
  const { lines, logo, qr_code: qr, signature } = DESIGNER_LAYOUT;
  return {
    logo: { ...logo },
    title: { x: lines.x, y: lines.title, width: lines.width },
    recipient: { x: lines.x, y: lines.recipient, width: lines.width },
    details: { x: lines.x, y: lines.details, width: lines.width },
    signature: { ...signature },
    qr_code: { x: qr.x, y: qr.y, width: qr.size },
  };
}

/** The layout a template's current version has (its first three text blocks are the designer's lines). */
export function layoutFromTemplate(template: Pick<Template, 'text_blocks' | 'qr_code' | 'logo_placement' | 'signature_placement'>): Layout {
  const fallback = defaultLayout();
  const line = (index: number, id: BlockId): Placement => {
    const block = template.text_blocks[index];
    return block ? { x: block.x, y: block.y, width: block.width } : fallback[id];
  };
  return {
    logo: { ...template.logo_placement },
    title: line(0, 'title'),
    recipient: line(1, 'recipient'),
    details: line(2, 'details'),
    signature: { ...template.signature_placement },
    qr_code: { x: template.qr_code.x, y: template.qr_code.y, width: template.qr_code.size },
  };
}

/** The height of a block's handle, a fraction of the page's height (images drawn as squares; a signature as a wide strip). */
export function blockHeight(id: BlockId, placement: Placement, page: PageSize): number {
  const lineSize = LINE_SIZES[id];
  if (lineSize) return (lineSize * LINE_HEIGHT) / page.height;
  const square = (placement.width * page.width) / page.height;
  return id === 'signature' ? square * 0.4 : square;
}

/** Within the schema's bounds: width within its limits, x + width ≤ 1, the block's handle on the page. */
export function clampPlacement(id: BlockId, placement: Placement, page: PageSize): Placement {
  const [minWidth, maxWidth] = WIDTH_BOUNDS[id];
  const width = tidy(clamp(placement.width, minWidth, maxWidth));
  const height = Math.min(blockHeight(id, { ...placement, width }, page), 1);
  return { x: tidy(clamp(placement.x, 0, 1 - width)), y: tidy(clamp(placement.y, 0, 1 - height)), width };
}

/** The nearest of the candidate positions within SNAP_DISTANCE, with the guide it draws; else the position on the grid. */
function snapAxis(position: number, candidates: { value: number; guide: number }[]): { value: number; guide: number | null } {
  let best: { value: number; guide: number } | null = null;
  for (const candidate of candidates) {
    const distance = Math.abs(candidate.value - position);
    // Ties (within rounding) go to the earlier candidate: the centre line first.
    if (distance <= SNAP_DISTANCE && (!best || distance < Math.abs(best.value - position) - 1e-9)) best = candidate;
  }
  return best ? { value: best.value, guide: best.guide } : { value: round(position), guide: null };
}

/** The other blocks' edges along one axis. */
function edgesOf(others: { placement: Placement; height: number }[], axis: 'x' | 'y'): number[] {
  return others.flatMap(({ placement, height }) => (axis === 'x' ? [placement.x, placement.x + placement.width] : [placement.y, placement.y + height]));
}

function othersOf(id: BlockId, layout: Layout, page: PageSize, shown: readonly BlockId[]) {
  return shown.filter((other) => other !== id).map((other) => ({ placement: layout[other], height: blockHeight(other, layout[other], page) }));
}

/**
 * A block moved to `proposed` (its top-left corner): each axis snaps to the page's centre line (the block's centre on
 * it) or to another block's edge (its left/right or top/bottom edge on it), else to the 1 % grid; then kept on the page.
 */
export function snapMove(id: BlockId, proposed: Placement, layout: Layout, page: PageSize, shown: readonly BlockId[] = BLOCK_IDS): { placement: Placement; guides: Guide[] } {
  const width = proposed.width;
  const height = blockHeight(id, proposed, page);
  const others = othersOf(id, layout, page, shown);
  const xCandidates = [
    { value: 0.5 - width / 2, guide: 0.5 },
    ...edgesOf(others, 'x').flatMap((edge) => [{ value: edge, guide: edge }, { value: edge - width, guide: edge }]),
  ];
  const yCandidates = [
    { value: 0.5 - height / 2, guide: 0.5 },
    ...edgesOf(others, 'y').flatMap((edge) => [{ value: edge, guide: edge }, { value: edge - height, guide: edge }]),
  ];
  const x = snapAxis(proposed.x, xCandidates);
  const y = snapAxis(proposed.y, yCandidates);
  const placement = clampPlacement(id, { x: x.value, y: y.value, width }, page);
  const guides: Guide[] = [];
  // A guide only where the snap survived keeping the block on the page.
  if (x.guide !== null && Math.abs(placement.x - x.value) < 1e-6) guides.push({ axis: 'x', at: tidy(x.guide) });
  if (y.guide !== null && Math.abs(placement.y - y.value) < 1e-6) guides.push({ axis: 'y', at: tidy(y.guide) });
  return { placement, guides };
}

/** A block's right edge dragged to `right`: snaps to the centre line or another block's edge, else the grid. */
export function snapResize(id: BlockId, placement: Placement, right: number, layout: Layout, page: PageSize, shown: readonly BlockId[] = BLOCK_IDS): { placement: Placement; guides: Guide[] } {
  const others = othersOf(id, layout, page, shown);
  const edge = snapAxis(right, [{ value: 0.5, guide: 0.5 }, ...edgesOf(others, 'x').map((at) => ({ value: at, guide: at }))]);
  // The left edge stays: the width stops where the page does.
  const resized = clampPlacement(id, { ...placement, width: Math.min(edge.value, 1) - placement.x }, page);
  const kept = edge.guide !== null && Math.abs(resized.x + resized.width - edge.value) < 1e-6;
  return { placement: resized, guides: kept ? [{ axis: 'x', at: tidy(edge.guide!) }] : [] };
}

/** A block nudged by the keyboard: `dx`/`dy` moved, `dw` resized, on the grid and kept on the page. */
export function nudge(id: BlockId, placement: Placement, change: { dx?: number; dy?: number; dw?: number }, page: PageSize): Placement {
  return clampPlacement(
    id,
    { x: round(placement.x + (change.dx ?? 0)), y: round(placement.y + (change.dy ?? 0)), width: round(placement.width + (change.dw ?? 0)) },
    page,
  );
}

/** "x 10 %, y 30 %, width 80 %" (the QR code's width is its size). */
export function describePlacement(id: BlockId, placement: Placement): string {
  const percent = (value: number) => `${Math.round(value * 100)} %`;
  return `x ${percent(placement.x)}, y ${percent(placement.y)}, ${id === 'qr_code' ? 'size' : 'width'} ${percent(placement.width)}`;
}

type NewTemplate = CertificateSchemas['NewTemplate'];
type TemplateUpdate = CertificateSchemas['TemplateUpdate'];

/** A body with the layout's positions (the QR code, logo, signature and the three lines), all else as the body had it. */
export function withLayout<Body extends NewTemplate | TemplateUpdate>(body: Body, layout: Layout): Body {
  const placed: Body = {
    ...body,
    qr_code: { x: layout.qr_code.x, y: layout.qr_code.y, size: layout.qr_code.width },
    logo_placement: { ...layout.logo },
    signature_placement: { ...layout.signature },
  };
  if (body.text_blocks) {
    placed.text_blocks = body.text_blocks.map((block, index) => {
      const id = TEXT_BLOCKS[index];
      return id ? { ...block, ...layout[id] } : block;
    });
  }
  return placed;
}
