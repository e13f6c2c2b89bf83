import { request, send } from '../../api/http';
import type { CertificateSchemas, Page, Template } from '../../api/types';

export type TemplateVersion = CertificateSchemas['TemplateVersion'];
export type TemplateVersionList = CertificateSchemas['TemplateVersionList'];

const templatePath = (id: string) => `/templates/${encodeURIComponent(id)}` as const;

/** A page of templates, newest first; `cursor` is the previous page's `next_cursor` (the service's `starting_after`). */
export const listTemplates = (cursor?: string, status?: 'active' | 'archived', limit = 20) =>
  request<Page<Template>>('certificate', '/templates', { query: { limit, starting_after: cursor, status } });
export const getTemplate = (id: string) => request<Template>('certificate', templatePath(id));
export const createTemplate = (body: CertificateSchemas['NewTemplate']) => request<Template>('certificate', '/templates', { method: 'POST', body });
/** Makes the template's next version, which becomes current (certificates issued before keep theirs). */
export const updateTemplate = (id: string, body: CertificateSchemas['TemplateUpdate']) => request<Template>('certificate', templatePath(id), { method: 'PATCH', body });
export const archiveTemplate = (id: string) => request<Template>('certificate', `${templatePath(id)}/archive`, { method: 'POST' });
export const listTemplateVersions = (id: string, before?: number) =>
  request<TemplateVersionList>('certificate', `${templatePath(id)}/versions`, { query: { limit: 20, before } });

/** A file's bytes as base64 (images travel in the template's JSON body). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? '').replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * A preview drawn (the PNG), or (202) still being drawn by the service: the same body sent again after
 * `retryAfterSeconds` gets it (the service keeps the drawing a minute).
 */
export type PreviewAnswer = { image: Blob } | { retryAfterSeconds: number };

async function previewAnswer(response: Response): Promise<PreviewAnswer> {
  if (response.status === 202) return { retryAfterSeconds: Math.max(1, Number(response.headers.get('retry-after')) || 1) };
  return { image: await response.blob() };
}

/** A new template's draft as the certificate renderer draws it (PNG, never stored): the designer's live preview. */
export async function previewTemplate(body: CertificateSchemas['NewTemplate'], signal?: AbortSignal): Promise<PreviewAnswer> {
  return previewAnswer(await send('certificate', '/templates/preview', { method: 'POST', body, signal }));
}

/** The version an update would make, drawn (nothing stored): the preview while editing. */
export async function previewTemplateUpdate(id: string, body: CertificateSchemas['TemplateUpdate'], signal?: AbortSignal): Promise<PreviewAnswer> {
  return previewAnswer(await send('certificate', `${templatePath(id)}/preview`, { method: 'POST', body, signal }));
}
