import { ApiError, NotFoundError } from '@platform/service-kit/errors';
import { verifiedStatus } from '../certificates';
import { formatVerificationCode } from '../certificates';
import { issuerIdentityMark } from '../../platform/issuer-identity-mark';
import { BUILT_IN_TEMPLATE } from './built-in-template';
import { humanDate, issuerNameOf } from './document-dates';
import type { DocumentInput } from './document-renderers';
import { type ImageToDecode, type PreviewDraft, type TemplateDraft, unreadableImage } from '../templates';
import type { CertificateForDocument, DocumentFormat, DocumentKey, DocumentsRepository } from './documents.repository';
import { createPreviewCache, previewKey } from './preview-cache';
import { RenderQueueFullError, RenderWithdrawnError, type JobOwner, type RenderPool } from './render-pool';

export const DOCUMENT_CONTENT_TYPES: Record<DocumentFormat, string> = { pdf: 'application/pdf', png: 'image/png' };

/** The public page of a certificate, which its QR code and `{{verification_url}}` point at. */
export function credentialPageUrl(publicBaseUrl: string, verificationCode: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/credentials/${formatVerificationCode(verificationCode)}`;
}

export interface DocumentRenderSettings {
  pool: RenderPool;
  /** Renders of one organization's documents in flight at once; the public route refuses more with a 503. */
  perOrganization: number;
}

/** A document ready to send, or (the public route) one still being rendered: ask again after `retryAfterSeconds`. */
export type DocumentAnswer = { ready: true; content: Buffer } | { ready: false; retryAfterSeconds: number };

/** Template previews kept for the designer's next ask: 2 an organization, 32 in all, a minute each once drawn. */
const PREVIEW_CACHE = { perOrganization: 2, total: 32, ttlMs: 60_000 };

function keyOf(certificate: CertificateForDocument, format: DocumentFormat): DocumentKey {
  const status = verifiedStatus(certificate.status, certificate.expires_on, certificate.livemode);
  return { certificateId: certificate.id, templateVersion: certificate.template_version ?? 0, status, format };
}

/** What the renderer draws for a certificate: its template version's design and images, and the certificate's values. */
async function documentInput(repository: DocumentsRepository, publicBaseUrl: string, certificate: CertificateForDocument, key: DocumentKey): Promise<DocumentInput> {
  const template = certificate.template_id ? await repository.templateVersion(certificate.template_id, key.templateVersion) : undefined;
  const verificationUrl = credentialPageUrl(publicBaseUrl, certificate.verification_code);
  const definition = template?.definition ?? BUILT_IN_TEMPLATE;
  return {
    definition,
    backgroundImage: template?.background_image ?? null,
    logo: template?.logo ?? null,
    signature: template?.signature_image ?? null,
    verificationUrl,
    title: `${certificate.program_title}: ${certificate.recipient_name}`,
    status: key.status,
    // Beside the issuer's name as the document prints it (a template may name a faculty instead of the organization).
    issuerNote: `${definition.issuer_name ?? certificate.organization_name} — ${issuerIdentityMark(certificate.issuer_domain)}`,
    values: {
      ...certificate.custom_fields,
      recipient_name: certificate.recipient_name,
      program_title: certificate.program_title,
      issue_date: humanDate(certificate.issue_date, definition.date_format),
      issuer_name: issuerNameOf(definition.issuer_name, certificate.organization_name),
      certificate_number: certificate.certificate_number,
      verification_url: verificationUrl,
    },
  };
}

/** What the renderer draws for a template draft's preview: the draft with sample values. */
function previewInput(publicBaseUrl: string, draft: TemplateDraft, issuerName: string): DocumentInput {
  const verificationUrl = credentialPageUrl(publicBaseUrl, 'PREVIEW');
  const samples = Object.fromEntries(draft.definition.custom_fields.map((field) => [field.key, field.label]));
  return {
    definition: draft.definition,
    backgroundImage: draft.background,
    logo: draft.logo,
    signature: draft.signature,
    verificationUrl,
    title: 'Preview',
    status: 'valid',
    values: {
      ...samples,
      recipient_name: 'Ada Lovelace',
      program_title: 'Sample programme',
      issue_date: humanDate(new Date().toISOString().slice(0, 10), draft.definition.date_format),
      issuer_name: issuerNameOf(draft.definition.issuer_name, issuerName),
      certificate_number: 'PREVIEW-0001',
      verification_url: verificationUrl,
    },
  };
}

/** The render's result if it comes within `waitMs`, else null (it goes on, and is kept when done). */
async function within(render: Promise<Buffer>, waitMs: number): Promise<Buffer | null> {
  if (waitMs <= 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
  try {
    return await Promise.race([render, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Admission to the render pool: each organization's jobs in flight counted, and a 503 with Retry-After when the
 * organization's budget or the pool's queue is full.
 */
function renderAdmission(renders: DocumentRenderSettings) {
  const perOrganization = new Map<string, number>();

  /** Seconds until asking again is worth it, from the organization's place in the render queue (1 to 30). */
  const retryAfterSeconds = (organization: string) => renders.pool.retryAfterSeconds(organization);

  function busy(organization: string, message: string): ApiError {
    const seconds = retryAfterSeconds(organization);
    return new ApiError(503, 'too_many_in_flight', `${message}; retry after ${seconds} s`, {}, { 'Retry-After': String(seconds) });
  }

  /**
   * Runs `job` in the render pool as one of the organization's jobs in flight. With `budgeted`, an organization that
   * has `perOrganization` in flight gets a 503 instead; a full queue is a 503 too. Throws before `job` starts.
   */
  function inPool<T>(organization: string, budgeted: boolean, job: () => Promise<T>): Promise<T> {
    const count = perOrganization.get(organization) ?? 0;
    if (budgeted && count >= renders.perOrganization) throw busy(organization, "Too many of this organization's documents are being rendered");
    if (!renders.pool.hasRoom()) throw busy(organization, 'Too many documents are being rendered');
    perOrganization.set(organization, count + 1);
    return (async () => {
      try {
        return await job();
      } catch (error) {
        throw error instanceof RenderQueueFullError ? busy(organization, 'Too many documents are being rendered') : error;
      } finally {
        const left = (perOrganization.get(organization) ?? 1) - 1;
        if (left > 0) perOrganization.set(organization, left);
        else perOrganization.delete(organization);
      }
    })();
  }

  return { inPool, retryAfterSeconds };
}

/** A preview's render: the draft's uploaded images decoded first (a 422 names the first that does not), then the PNG. */
async function drawPreview(pool: RenderPool, owner: JobOwner, preview: PreviewDraft, input: DocumentInput): Promise<Buffer> {
  if (preview.toDecode.length) {
    const decoded = await pool.decode(preview.toDecode.map((image) => image.bytes), owner);
    const unreadable = preview.toDecode.find((_image, index) => !decoded[index]);
    if (unreadable) throw unreadableImage(unreadable);
  }
  return pool.render('png', input, owner);
}

/**
 * Renders a certificate from the template version it was issued with (the built-in layout, version 0, without one),
 * in a worker thread of the render pool, never on the event loop. A document depends only on the certificate, that
 * version and the certificate's status (revoked and expired documents say so), so the first render of each is stored
 * and served from then on; concurrent requests for one document share one render.
 */
export function createDocumentsService(repository: DocumentsRepository, publicBaseUrl: string, renders: DocumentRenderSettings) {
  const inFlight = new Map<string, Promise<Buffer>>();
  const { inPool, retryAfterSeconds } = renderAdmission(renders);
  const previews = createPreviewCache(PREVIEW_CACHE);

  /** The render of one document, joined when it is already in flight, else started in the pool (and stored when done). */
  function renderOnce(certificate: CertificateForDocument, key: DocumentKey, budgeted: boolean): Promise<Buffer> {
    const id = `${key.certificateId}/${key.templateVersion}/${key.status}/${key.format}`;
    const running = inFlight.get(id);
    if (running) return running;
    const render = inPool(certificate.organization_id, budgeted, async () => {
      try {
        const content = await renders.pool.render(key.format, await documentInput(repository, publicBaseUrl, certificate, key), { organization: certificate.organization_id });
        await repository.store(key, content);
        return content;
      } finally {
        inFlight.delete(id);
      }
    });
    // A render whose requester stopped waiting may fail unobserved; the next request for the document starts another.
    render.catch(() => undefined);
    inFlight.set(id, render);
    return render;
  }

  return {
    /**
     * Uploaded template images decoded in the render pool, within the organization's budget (a 503 with Retry-After
     * past it): a 422 names the first that does not decode.
     */
    async decodeImages(organizationId: string, images: ImageToDecode[]): Promise<void> {
      const decoded = await inPool(organizationId, true, () => renders.pool.decode(images.map((image) => image.bytes), { organization: organizationId }));
      const unreadable = images.find((_image, index) => !decoded[index]);
      if (unreadable) throw unreadableImage(unreadable);
    },
    /**
     * A template draft drawn as PNG by the real renderer with sample values (the designer's live preview), through the
     * render pool like every document: the PNG if drawn within `waitMs`, else not ready yet (the render goes on, and
     * the PNG is kept a minute for the same draft asked again). Counted in the organization's renders in flight but
     * never refused for them (its previews kept are bounded instead); a 503 with Retry-After only when the queue is full.
     */
    async preview(organizationId: string, preview: PreviewDraft, issuerName: string, waitMs: number): Promise<DocumentAnswer> {
      const key = previewKey(preview.draft, issuerName);
      const entry =
        previews.find(organizationId, key) ??
        previews.add(organizationId, key, (signal) =>
          inPool(organizationId, false, () => drawPreview(renders.pool, { organization: organizationId, signal }, preview, previewInput(publicBaseUrl, preview.draft, issuerName))),
        );
      let content: Buffer | null;
      try {
        content = entry.endedAt === null ? await within(entry.render, waitMs) : await entry.render;
      } catch (error) {
        // A failure is told once; the draft asked again starts a new render. One dropped for newer drafts: ask again.
        previews.drop(entry);
        if (error instanceof RenderWithdrawnError) content = null;
        else throw error;
      }
      return content ? { ready: true, content } : { ready: false, retryAfterSeconds: retryAfterSeconds(organizationId) };
    },
    /** The dashboard's document, in the mode asked for: waits for the render (no organization budget; a full queue is still a 503). */
    async forCertificate(organizationId: string, id: string, format: DocumentFormat, livemode = true): Promise<Buffer> {
      const certificate = await repository.certificateInOrganization(organizationId, id, livemode);
      if (!certificate) throw new NotFoundError('Certificate not found');
      const key = keyOf(certificate, format);
      return (await repository.cached(key)) ?? renderOnce(certificate, key, false);
    },
    /**
     * The public document (`code` is the stored form, see `normalizeVerificationCode`): stored, or rendered within
     * `waitMs`, else not ready yet (the render goes on in the pool, within the organization's budget).
     */
    async forVerificationCode(code: string, format: DocumentFormat, waitMs: number): Promise<DocumentAnswer> {
      const certificate = await repository.certificateByVerificationCode(code);
      if (!certificate) throw new NotFoundError('Certificate not found');
      const key = keyOf(certificate, format);
      const cached = await repository.cached(key);
      if (cached) return { ready: true, content: cached };
      const content = await within(renderOnce(certificate, key, true), waitMs);
      return content ? { ready: true, content } : { ready: false, retryAfterSeconds: retryAfterSeconds(certificate.organization_id) };
    },
    /** Stops the render workers (at shutdown). */
    close: () => renders.pool.close(),
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
