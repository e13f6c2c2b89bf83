import type { Response } from 'express';
import { adminOf } from '@platform/service-kit/admin-auth';
import { isIdOf } from '@platform/service-kit/ids';
import { NotFoundError } from '@platform/service-kit/errors';
import type { Handlers } from '@platform/service-kit/operations';
import type { templatesRouteTable } from './templates.contract';
import type { PreviewDraft, TemplatesService } from './templates.service';

/** A preview drawn, or still being drawn: ask again (the same draft) after `retryAfterSeconds`. */
export type PreviewAnswer = { ready: true; content: Buffer } | { ready: false; retryAfterSeconds: number };

/** Draws a checked draft as PNG (the documents feature's renderer, wired in operation-handlers.ts). */
export type RenderPreview = (organizationId: string, preview: PreviewDraft, issuerName: string) => Promise<PreviewAnswer>;

/** `/admin/v1/templates`: owners and members design, version and archive their organization's certificate templates. */
export function templatesHandlers(service: TemplatesService, renderPreview: RenderPreview): Handlers<typeof templatesRouteTable> {
  return {
    createTemplate: async ({ body, req }) => ({ status: 201, body: await service.create(adminOf(req).org, body) }),
    /** A live preview while editing: the draft (a new template's body) as the real renderer draws it, PNG, never stored. */
    previewTemplate: async ({ body, req, res }) => {
      const admin = adminOf(req);
      sendPreview(res, await renderPreview(admin.org, service.draft(body), admin.org_name ?? 'Your organization'));
    },
    /** The preview of an edit: the next version an update with this body would make, drawn, never stored. */
    previewTemplateUpdate: async ({ params, body, req, res }) => {
      const id = templateId(params.id);
      const admin = adminOf(req);
      const draft = await service.draftUpdate(admin.org, id, body);
      sendPreview(res, await renderPreview(admin.org, draft, admin.org_name ?? 'Your organization'));
    },
    listTemplates: async ({ query, req }) => ({ status: 200, body: await service.list(adminOf(req).org, query.limit, query.starting_after, query.status) }),
    getTemplate: async ({ params, req }) => ({ status: 200, body: await service.get(adminOf(req).org, templateId(params.id)) }),
    updateTemplate: async ({ params, body, req }) => ({ status: 200, body: await service.update(adminOf(req).org, templateId(params.id), body) }),
    listTemplateVersions: async ({ params, query, req }) => ({ status: 200, body: await service.versions(adminOf(req).org, templateId(params.id), query.limit, query.before) }),
    archiveTemplate: async ({ params, req }) => ({ status: 200, body: await service.archive(adminOf(req).org, templateId(params.id)) }),
  };
}

/** The PNG, or a 202 while it is drawn (the render goes on; the same draft sent again after `Retry-After` gets it). */
function sendPreview(res: Response, answer: PreviewAnswer): void {
  if (!answer.ready) {
    res.status(202).set({ 'Retry-After': String(answer.retryAfterSeconds), 'Cache-Control': 'no-store' });
    res.json({ status: 'rendering', retry_after: answer.retryAfterSeconds });
    return;
  }
  res.status(200).set({ 'Content-Type': 'image/png', 'Cache-Control': 'no-store' }).end(answer.content);
}

/** An id of another shape names no template: 404, as any unknown id. */
function templateId(value: string): string {
  if (!isIdOf('tpl', value)) throw new NotFoundError('Template not found');
  return value;
}
