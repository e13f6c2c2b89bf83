/**
 * Handles over the live preview, one per block: dragged with the mouse (pointer events) a handle moves its block, its
 * right edge resizes the block's width; positions snap to a 1 % grid, the page's centre lines and the other blocks'
 * edges (a guide line shows the snap while dragging). A focused handle moves with the arrow keys (Shift: 5 %) and
 * Alt + Left/Right changes its width.
 */
import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  BLOCK_NAMES,
  blockHeight,
  describePlacement,
  GRID,
  nudge,
  snapMove,
  snapResize,
  type BlockId,
  type Guide,
  type Layout,
  type PageSize,
  type Placement,
} from './designer-layout';

interface Drag {
  id: BlockId;
  mode: 'move' | 'resize';
  pointerId: number;
  startX: number;
  startY: number;
  start: Placement;
  /** The overlay's size on screen when the drag began, in CSS pixels. */
  width: number;
  height: number;
}

const percent = (value: number) => `${value * 100}%`;

export function DesignerOverlay({ layout, page, blocks, onChange }: { layout: Layout; page: PageSize; blocks: readonly BlockId[]; onChange: (id: BlockId, placement: Placement) => void }) {
  const overlay = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const [dragging, setDragging] = useState<BlockId | null>(null);
  const [guides, setGuides] = useState<Guide[]>([]);
  const hintId = useId();

  const begin = (id: BlockId, mode: Drag['mode']) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0 || !overlay.current) return;
    event.preventDefault();
    event.stopPropagation();
    const box = overlay.current.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return;
    drag.current = { id, mode, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, start: layout[id], width: box.width, height: box.height };
    // Moves outside the handle still reach it (they bubble up to the overlay's listeners).
    event.currentTarget.setPointerCapture?.(event.pointerId);
    (event.currentTarget.closest('[data-block]') as HTMLElement | null)?.focus();
    setDragging(id);
  };

  const move = (event: PointerEvent<HTMLDivElement>) => {
    const now = drag.current;
    if (!now || event.pointerId !== now.pointerId) return;
    const dx = (event.clientX - now.startX) / now.width;
    const dy = (event.clientY - now.startY) / now.height;
    const snapped =
      now.mode === 'move'
        ? snapMove(now.id, { ...now.start, x: now.start.x + dx, y: now.start.y + dy }, layout, page, blocks)
        : snapResize(now.id, now.start, now.start.x + now.start.width + dx, layout, page, blocks);
    setGuides(snapped.guides);
    const current = layout[now.id];
    if (snapped.placement.x !== current.x || snapped.placement.y !== current.y || snapped.placement.width !== current.width) onChange(now.id, snapped.placement);
  };

  const end = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current || event.pointerId !== drag.current.pointerId) return;
    drag.current = null;
    setDragging(null);
    setGuides([]);
  };

  const keys = (id: BlockId) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.shiftKey ? 5 * GRID : GRID;
    const change =
      event.altKey && event.key === 'ArrowLeft' ? { dw: -step }
      : event.altKey && event.key === 'ArrowRight' ? { dw: step }
      : event.key === 'ArrowLeft' ? { dx: -step }
      : event.key === 'ArrowRight' ? { dx: step }
      : event.key === 'ArrowUp' ? { dy: -step }
      : event.key === 'ArrowDown' ? { dy: step }
      : null;
    if (!change) return;
    event.preventDefault();
    onChange(id, nudge(id, layout[id], change, page));
  };

  return (
    <div
      ref={overlay}
      className={`designer-overlay${dragging ? ' dragging' : ''}`}
      data-testid="designer-overlay"
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      role="group"
      aria-label="Layout: drag a block to move it, its right edge to resize it"
    >
      <p id={hintId} className="visually-hidden">
        Arrow keys move the block by 1 % (with Shift 5 %); Alt with Left or Right changes its width.
      </p>
      {blocks.map((id) => {
        const placement = layout[id];
        const label = `${BLOCK_NAMES[id]}: ${describePlacement(id, placement)}`;
        return (
          <button
            type="button"
            key={id}
            data-block={id}
            data-testid={`designer-block-${id}`}
            className={`designer-block${dragging === id ? ' active' : ''}`}
            aria-roledescription="movable block"
            aria-label={label}
            aria-describedby={hintId}
            title={label}
            style={{ left: percent(placement.x), top: percent(placement.y), width: percent(placement.width), height: percent(blockHeight(id, placement, page)) }}
            onPointerDown={begin(id, 'move')}
            onKeyDown={keys(id)}
          >
            <span className="designer-block-name" aria-hidden="true">{BLOCK_NAMES[id]}</span>
            <span className="designer-resize" data-testid={`designer-resize-${id}`} aria-hidden="true" onPointerDown={begin(id, 'resize')} />
          </button>
        );
      })}
      {guides.map((guide) => (
        <div key={`${guide.axis}-${guide.at}`} className={`designer-guide designer-guide-${guide.axis}`} data-testid="designer-guide" data-axis={guide.axis} data-at={guide.at}
          style={guide.axis === 'x' ? { left: percent(guide.at) } : { top: percent(guide.at) }} aria-hidden="true" />
      ))}
    </div>
  );
}
