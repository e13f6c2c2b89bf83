import { request, send } from '../../api/http';
import type { CertificateSchemas, Page, Template } from '../../api/types';

export const listTemplates = (cursor?: string) => request<Page<Template>>('certificate', '/templates', { query: { limit: 20, cursor } });
export const createTemplate = (body: CertificateSchemas['NewTemplate']) => request<Template>('certificate', '/templates', { method: 'POST', body });
export const archiveTemplate = (id: string) => request<Template>('certificate', `/templates/${encodeURIComponent(id)}/archive`, { method: 'POST' });

/** A file's bytes as base64 (images travel in the template's JSON body). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? '').replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The draft as the certificate renderer draws it (PNG, never stored): the designer's live preview. */
export async function previewTemplate(body: CertificateSchemas['NewTemplate'], signal?: AbortSignal): Promise<Blob> {
  return (await send('certificate', '/templates/preview', { method: 'POST', body, signal })).blob();
}
