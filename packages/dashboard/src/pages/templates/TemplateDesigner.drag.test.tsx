import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

/** The overlay as the browser lays it out: an A4 landscape page 1000 × 707 pixels. */
const STAGE = { width: 1000, height: 707 };

type Body = {
  text_blocks: { text: string; x: number; y: number; width: number }[];
  qr_code: { x: number; y: number; size: number };
  signature_placement: { x: number; y: number; width: number };
};

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue({ ...STAGE, x: 0, y: 0, left: 0, top: 0, right: STAGE.width, bottom: STAGE.height, toJSON: () => ({}) } as DOMRect);
});

function designer() {
  const api = fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/certificate/templates': { body: { data: [], has_more: false, next_cursor: null } },
    'POST /dashboard/api/certificate/templates/preview': { headers: { 'content-type': 'image/png' }, body: 'PNG' },
    'POST /dashboard/api/certificate/templates': (request) => ({ status: 201, body: { id: 'tpl_1', ...(request.body as object) } }),
  });
  return { api, ...renderApp('/templates') };
}

/** Drags `element` by (dx, dy) pixels with pointer events, checking `during` before letting go. */
function drag(element: Element, dx: number, dy: number, during?: () => void) {
  fireEvent.pointerDown(element, { pointerId: 1, button: 0, clientX: 100, clientY: 100 });
  fireEvent.pointerMove(element, { pointerId: 1, clientX: 100 + dx / 2, clientY: 100 + dy / 2 });
  fireEvent.pointerMove(element, { pointerId: 1, clientX: 100 + dx, clientY: 100 + dy });
  during?.();
  fireEvent.pointerUp(element, { pointerId: 1, clientX: 100 + dx, clientY: 100 + dy });
}

const lastPreview = (requests: FakeRequest[]) => requests.at(-1)!.body as Body;

describe('the template designer: dragging blocks on the preview', () => {
  it('moves a line with the mouse, snapping to the page centre line (guide shown while dragging); preview and save use the new place', async () => {
    const { api, user } = designer();
    const title = await screen.findByRole('button', { name: 'Title line: x 10 %, y 30 %, width 80 %' });
    // 3 px right (snaps back onto the centre line), 5 % down.
    drag(title, 3, 0.05 * STAGE.height, () => {
      const guides = screen.getAllByTestId('designer-guide');
      expect(guides.map((guide) => [guide.dataset.axis, guide.dataset.at])).toEqual([['x', '0.5']]);
    });
    expect(screen.queryByTestId('designer-guide')).toBeNull();
    expect(title.getAttribute('aria-label')).toBe('Title line: x 10 %, y 35 %, width 80 %');
    // The live preview is drawn again (debounced) with the moved line.
    await waitFor(() => expect(lastPreview(api.calls('POST /dashboard/api/certificate/templates/preview')).text_blocks[0]).toMatchObject({ x: 0.1, y: 0.35, width: 0.8 }));

    await user.type(screen.getByLabelText('Template name'), 'Diploma');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    await waitFor(() => expect(api.calls('POST /dashboard/api/certificate/templates')).toHaveLength(1));
    const saved = api.calls('POST /dashboard/api/certificate/templates')[0]!.body as Body;
    expect(saved.text_blocks.map(({ x, y, width }) => ({ x, y, width }))).toEqual([
      { x: 0.1, y: 0.35, width: 0.8 },
      { x: 0.1, y: 0.47, width: 0.8 },
      { x: 0.1, y: 0.62, width: 0.8 },
    ]);
  });

  it("snaps a block's centre onto the page's centre line, else to the 1 % grid", async () => {
    const { api } = designer();
    const signature = await screen.findByRole('button', { name: 'Signature: x 8 %, y 72 %, width 20 %' });
    // Its centre from 18 % to 49.5 %: on the centre line (x 40 %).
    drag(signature, 315, 0, () => expect(screen.getByTestId('designer-guide').dataset.at).toBe('0.5'));
    expect(signature.getAttribute('aria-label')).toBe('Signature: x 40 %, y 72 %, width 20 %');
    // Then 23.4 % left: nothing near, so onto the grid (x 16.6 % → 17 %), no guide.
    drag(signature, -234, 0, () => expect(screen.queryByTestId('designer-guide')).toBeNull());
    expect(signature.getAttribute('aria-label')).toBe('Signature: x 17 %, y 72 %, width 20 %');
    await waitFor(() => expect(lastPreview(api.calls('POST /dashboard/api/certificate/templates/preview')).signature_placement).toEqual({ x: 0.17, y: 0.72, width: 0.2 }));
  });

  it('resizes a block by dragging its right edge, never past the page', async () => {
    const { api } = designer();
    const details = await screen.findByRole('button', { name: 'Details line: x 10 %, y 62 %, width 80 %' });
    drag(screen.getByTestId('designer-resize-details'), -150, 0);
    expect(details.getAttribute('aria-label')).toBe('Details line: x 10 %, y 62 %, width 65 %');
    drag(screen.getByTestId('designer-resize-details'), 900, 0);
    expect(details.getAttribute('aria-label')).toBe('Details line: x 10 %, y 62 %, width 90 %');
    await waitFor(() => expect(lastPreview(api.calls('POST /dashboard/api/certificate/templates/preview')).text_blocks[2]).toMatchObject({ x: 0.1, width: 0.9 }));
  });

  it('moves a focused block with the arrow keys (Shift: 5 %), changes its width with Alt, and keeps it on the page', async () => {
    const { api, user } = designer();
    const qr = await screen.findByRole('button', { name: 'QR code: x 83 %, y 70 %, size 12 %' });
    qr.focus();
    await user.keyboard('{ArrowLeft}');
    expect(qr.getAttribute('aria-label')).toBe('QR code: x 82 %, y 70 %, size 12 %');
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(qr.getAttribute('aria-label')).toBe('QR code: x 82 %, y 65 %, size 12 %');
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(qr.getAttribute('aria-label')).toBe('QR code: x 82 %, y 65 %, size 13 %');
    // Far right: x + size stays ≤ 1.
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    expect(qr.getAttribute('aria-label')).toBe('QR code: x 87 %, y 65 %, size 13 %');
    await waitFor(() => expect(lastPreview(api.calls('POST /dashboard/api/certificate/templates/preview')).qr_code).toEqual({ x: 0.87, y: 0.65, size: 0.13 }));
  });
});
