/**
 * The public tracking page's branding (what recipients see of the organization): display name, accent colour and
 * logo, with a live preview of the page's header as they change; saved through PATCH /admin/v1/partner/branding.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useRole, useSession } from '../../auth/session';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/fields';
import { formatDate } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { COLOR_PATTERN, contrastOnWhite, DEFAULT_BRAND_COLOR, getBranding, LOGO_MAX_BYTES, LOGO_TYPES, MIN_CONTRAST, updateBranding, type BrandingChange, type PartnerBranding } from './branding-api';

interface Draft {
  displayName: string;
  color: string;
  /** A new logo chosen here (a data URL), or null to remove the stored one; undefined keeps it. */
  logo: string | null | undefined;
}

const draftOf = (branding: PartnerBranding): Draft => ({ displayName: branding.display_name ?? '', color: branding.brand_color ?? '', logo: undefined });

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });

export function BrandingPage() {
  const branding = useQuery({ queryKey: ['branding'], queryFn: getBranding });
  return (
    <section>
      <h1>Tracking page branding</h1>
      <p>
        What the recipient of a delivery sees of your organization on its public tracking page: your name, your logo and your colour (the bar above
        the page and the route line). Test and live deliveries show the same branding.
      </p>
      <QueryState isLoading={branding.isLoading} error={branding.error} what="the branding" />
      {branding.data && <BrandingForm branding={branding.data} />}
    </section>
  );
}

function BrandingForm({ branding }: { branding: PartnerBranding }) {
  const queryClient = useQueryClient();
  const role = useRole();
  const canChange = role === 'owner' || role === 'operator' || role === 'platform_operator';
  const organizationName = useSession().session?.organization?.name ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(branding));
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (change: BrandingChange) => updateBranding(change),
    onSuccess: (saved) => queryClient.setQueryData(['branding'], saved),
  });
  const logoId = useId();

  const color = draft.color.trim();
  const colorValid = color === '' || COLOR_PATTERN.test(color);
  const contrast = colorValid && color ? contrastOnWhite(color) : null;
  const shownColor = colorValid && color ? color.toLowerCase() : DEFAULT_BRAND_COLOR;
  const colorHint = !colorValid
    ? 'Use the form #rrggbb.'
    : contrast === null
      ? `Empty: the default blue (${DEFAULT_BRAND_COLOR}).`
      : `Contrast ${contrast.toFixed(1)}:1 against white${contrast < MIN_CONTRAST ? ` — too light: at least ${MIN_CONTRAST}:1 is needed` : ''}.`;

  const chooseLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setLogoProblem(null);
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) return setLogoProblem('Choose a PNG, JPEG or WebP image.');
    if (file.size > LOGO_MAX_BYTES) return setLogoProblem(`The logo is ${Math.ceil(file.size / 1024)} KiB; at most 64 KiB.`);
    const url = await readDataUrl(file);
    setDraft((current) => ({ ...current, logo: url }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: BrandingChange = { display_name: draft.displayName.trim() || null, brand_color: color ? color.toLowerCase() : null };
    if (draft.logo !== undefined) change.logo = draft.logo;
    save.mutate(change);
  };

  const hasLogo = draft.logo === undefined ? branding.logo !== null : draft.logo !== null;
  return (
    <>
      <form aria-label="Tracking page branding" className="card" onSubmit={submit} noValidate>
        <fieldset disabled={!canChange} className="field">
          {!canChange && <p className="muted">Only owners and operators can change the branding.</p>}
          <TextField label="Display name" name="display_name" value={draft.displayName} maxLength={100} error={save.error}
            hint={`Empty: your organization's name${organizationName ? ` (${organizationName})` : ''}.`}
            onChange={(event) => setDraft({ ...draft, displayName: event.target.value })} />
          <TextField label="Brand colour" name="brand_color" value={draft.color} placeholder={DEFAULT_BRAND_COLOR} error={save.error} hint={colorHint}
            onChange={(event) => setDraft({ ...draft, color: event.target.value })} />
          <div className="field">
            <label htmlFor={`${logoId}-picker`}>Pick the brand colour</label>
            <input id={`${logoId}-picker`} type="color" value={shownColor} onChange={(event) => setDraft({ ...draft, color: event.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={logoId}>Logo</label>
            <input id={logoId} type="file" accept={LOGO_TYPES.join(',')} aria-describedby={`${logoId}-hint`} onChange={chooseLogo} />
            <small id={`${logoId}-hint`} className="hint">
              PNG, JPEG or WebP, at most 64 KiB; shown 40 px high.{' '}
              {draft.logo === undefined && branding.logo ? `Now: ${branding.logo.content_type}, ${(branding.logo.bytes / 1024).toFixed(1)} KiB.` : ''}
            </small>
            {logoProblem && (
              <small className="field-error" role="alert">
                {logoProblem}
              </small>
            )}
          </div>
          {hasLogo && (
            <p>
              <button type="button" onClick={() => setDraft({ ...draft, logo: null })}>
                Remove the logo
              </button>
            </p>
          )}
          <FormError error={save.error} fields={['display_name', 'brand_color']} />
          <div className="actions">
            <button type="submit" disabled={save.isPending || !colorValid}>
              {save.isPending ? 'Saving…' : 'Save branding'}
            </button>
            {save.isSuccess && (
              <span role="status" data-testid="branding-saved">
                Saved{save.data.updated_at ? ` ${formatDate(save.data.updated_at)}` : ''}. New tracking pages show it now.
              </span>
            )}
          </div>
        </fieldset>
      </form>
      <BrandingPreview name={draft.displayName.trim() || organizationName} color={shownColor} logo={draft.logo} storedLogo={draft.logo === undefined && branding.logo !== null} />
    </>
  );
}

/** The tracking page's header as a recipient would see it with the draft: bar, logo, name; and a route line in the colour. */
function BrandingPreview({ name, color, logo, storedLogo }: { name: string | null; color: string; logo: string | null | undefined; storedLogo: boolean }) {
  // The chosen logo is shown from its data URL in memory; nothing is fetched from elsewhere.
  const shownLogo = logo;
  return (
    <section aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview</h2>
      <p className="muted">The top of the tracking page, as recipients will see it once you save.</p>
      <div className="brand-preview" data-testid="branding-preview">
        <svg className="brand-bar" aria-hidden="true" focusable="false" preserveAspectRatio="none" viewBox="0 0 10 1" width="100%" height="6">
          <rect data-testid="preview-bar" width="10" height="1" fill={color} />
        </svg>
        <div className="preview-header">
          {shownLogo ? (
            <img src={shownLogo} alt={name ? '' : "Sender's logo"} data-testid="preview-logo" />
          ) : storedLogo ? (
            <span className="muted" data-testid="preview-logo-stored">
              [your stored logo]
            </span>
          ) : null}
          <div>
            {name && (
              <p className="sender" data-testid="preview-name">
                {name}
              </p>
            )}
            <p className="kind">Delivery tracking</p>
          </div>
        </div>
        <svg className="route" viewBox="0 0 320 60" role="img" aria-label={`The route line in ${color}`}>
          <line data-testid="preview-route" x1="24" y1="30" x2="296" y2="30" stroke={color} strokeWidth="5" strokeLinecap="round" />
          <circle cx="24" cy="30" r="7" fill="#fff" stroke="#1f2933" strokeWidth="3" />
          <circle cx="296" cy="30" r="7" fill="#1f2933" />
        </svg>
      </div>
    </section>
  );
}
