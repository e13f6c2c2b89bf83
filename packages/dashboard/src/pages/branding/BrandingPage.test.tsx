import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const stored = { display_name: 'Mama Put Kitchen', brand_color: '#0b6e4f', logo: null, updated_at: '2026-11-26T09:00:00.000Z' };
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

describe('tracking page branding', () => {
  it('previews the header live as the name, colour and logo change, and saves them through the API', async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/partner/branding': { body: stored },
      'PATCH /dashboard/api/mobility/partner/branding': (request) => ({ body: { ...stored, ...(request.body as object), logo: { content_type: 'image/png', bytes: PNG.length, sha256: 'ab' }, updated_at: '2026-11-29T10:00:00.000Z' } }),
    });
    const { user } = renderApp('/branding');
    const name = await screen.findByLabelText('Display name');
    expect((name as HTMLInputElement).value).toBe('Mama Put Kitchen');
    expect(screen.getByTestId('preview-name').textContent).toBe('Mama Put Kitchen');
    expect(screen.getByTestId('preview-bar').getAttribute('fill')).toBe('#0b6e4f');

    // Every keystroke shows in the preview, before anything is saved.
    await user.clear(name);
    await user.type(name, 'Ada Foods');
    expect(screen.getByTestId('preview-name').textContent).toBe('Ada Foods');
    const color = screen.getByLabelText('Brand colour');
    await user.clear(color);
    await user.type(color, '#7c2d12');
    expect(screen.getByTestId('preview-bar').getAttribute('fill')).toBe('#7c2d12');
    expect(screen.getByTestId('preview-route').getAttribute('stroke')).toBe('#7c2d12');
    expect(screen.getByText(/^Contrast \d+\.\d:1 against white\.$/)).toBeTruthy();
    // An empty name shows the organization's.
    await user.clear(name);
    expect(screen.getByTestId('preview-name').textContent).toBe('Acme Learning');
    await user.type(name, 'Ada Foods');

    await user.upload(screen.getByLabelText('Logo'), new File([PNG], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByTestId('preview-logo').getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/));
    expect(api.calls('PATCH /dashboard/api/mobility/partner/branding')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Save branding' }));
    expect((await screen.findByTestId('branding-saved')).textContent).toContain('Saved');
    // The form stays as saved (not reset by the answer), the status with it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('branding-saved')).toBeTruthy();
    expect((screen.getByLabelText('Display name') as HTMLInputElement).value).toBe('Ada Foods');
    const [sent] = api.calls('PATCH /dashboard/api/mobility/partner/branding');
    expect(sent!.body).toEqual({ display_name: 'Ada Foods', brand_color: '#7c2d12', logo: expect.stringMatching(/^data:image\/png;base64,/) });
  });

  it("warns about a colour too light for the route line, and shows the API's refusal under the field, saving nothing", async () => {
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/mobility/partner/branding': { body: { display_name: null, brand_color: null, logo: null, updated_at: null } },
      'PATCH /dashboard/api/mobility/partner/branding': problem(422, 'validation_failed', 'Request validation failed', [
        { path: 'brand_color', message: 'must contrast at least 3:1 with white (the route line is drawn in it)' },
      ]),
    });
    const { user } = renderApp('/branding');
    const color = await screen.findByLabelText('Brand colour');
    // Unset: the default colour is previewed.
    expect(screen.getByTestId('preview-bar').getAttribute('fill')).toBe('#1d4ed8');
    await user.type(color, '#ffff00');
    expect(screen.getByText(/too light: at least 3:1 is needed/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save branding' }));
    expect((await screen.findByTestId('error-brand_color')).textContent).toBe('must contrast at least 3:1 with white (the route line is drawn in it)');
    expect(color.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('branding-saved')).toBeNull();
    expect(api.calls('PATCH /dashboard/api/mobility/partner/branding')[0]!.body).toEqual({ display_name: null, brand_color: '#ffff00' });

    // Not a colour: the save button waits for one.
    await user.clear(color);
    await user.type(color, 'green');
    expect(screen.getByText('Use the form #rrggbb.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save branding' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('refuses a logo that is not an image or over 64 KiB without sending it, and lets members without the role only look', async () => {
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme Learning', role: 'member' } }) },
      'GET /dashboard/api/mobility/partner/branding': { body: stored },
    });
    renderApp('/branding');
    expect(await screen.findByText('Only owners and operators can change the branding.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save branding' }).matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Display name').matches(':disabled')).toBe(true);
    // The picker is disabled with the fieldset; a file given anyway is still checked.
    fireEvent.change(screen.getByLabelText('Logo'), { target: { files: [new File(['x'.repeat(70 * 1024)], 'big.png', { type: 'image/png' })] } });
    expect(await screen.findByText('The logo is 70 KiB; at most 64 KiB.')).toBeTruthy();
    expect(screen.queryByTestId('preview-logo')).toBeNull();
  });
});
