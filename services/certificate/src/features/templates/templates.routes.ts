import express, { Router, type RequestHandler, type Response } from 'express';
import { hasBody, isIdOf, isJsonType, NotFoundError, parseOrThrow, requireRole, UnsupportedMediaTypeError, adminOf } from '@platform/service-kit';
import { newTemplateSchema, templateListQuery, templatePatchSchema, templateVersionListQuery } from './templates.schema';
import type { TemplatesService } from './templates.service';

/** Draws a checked draft as PNG (the documents feature's renderer, wired in admin/admin.routes.ts). */
export type RenderPreview = (organizationId: string, draft: Awaited<ReturnType<TemplatesService['draft']>>, issuerName: string) => Promise<Buffer>;

/** Templates carry base64 images, so their JSON bodies may be up to 3 MB (other admin bodies: 100 kB). */
const TEMPLATE_BODY_LIMIT = '3mb';

/** Mounted on `/admin/v1/templates` before the app's 100 kB JSON parser, and after authentication. */
export function templateBodyParsers(): RequestHandler[] {
  return [
    (req, _res, next) => (hasBody(req) && !isJsonType(req) ? next(new UnsupportedMediaTypeError()) : next()),
    express.json({ limit: TEMPLATE_BODY_LIMIT, strict: true }),
  ];
}

/** `/admin/v1/templates`: owners and members design, version and archive their organization's certificate templates. */
export function templateAdminRoutes(service: TemplatesService, renderPreview: RenderPreview): Router {
  const router = Router();
  router.use(requireRole('owner', 'member'));

  router.post('/', async (req, res) => {
    const input = parseOrThrow(newTemplateSchema, req.body ?? {});
    res.status(201).json(await service.create(adminOf(req).org, input));
  });
  /** A live preview while editing: the draft (a new template's body) as the real renderer draws it, PNG, never stored. */
  router.post('/preview', async (req, res) => {
    const admin = adminOf(req);
    const draft = await service.draft(admin.org, parseOrThrow(newTemplateSchema, req.body ?? {}));
    sendPng(res, await renderPreview(admin.org, draft, admin.org_name ?? 'Your organization'));
  });
  /** The preview of an edit: the next version an update with this body would make, drawn, never stored. */
  router.post('/:id/preview', async (req, res) => {
    const id = templateId(req.params.id);
    const admin = adminOf(req);
    const draft = await service.draftUpdate(admin.org, id, parseOrThrow(templatePatchSchema, req.body ?? {}));
    sendPng(res, await renderPreview(admin.org, draft, admin.org_name ?? 'Your organization'));
  });
  router.get('/', async (req, res) => {
    const query = parseOrThrow(templateListQuery, req.query);
    res.json(await service.list(adminOf(req).org, query.limit, query.starting_after, query.status));
  });
  router.get('/:id', async (req, res) => {
    res.json(await service.get(adminOf(req).org, templateId(req.params.id)));
  });
  router.patch('/:id', async (req, res) => {
    const id = templateId(req.params.id);
    res.json(await service.update(adminOf(req).org, id, parseOrThrow(templatePatchSchema, req.body ?? {})));
  });
  router.get('/:id/versions', async (req, res) => {
    const id = templateId(req.params.id);
    const query = parseOrThrow(templateVersionListQuery, req.query);
    res.json(await service.versions(adminOf(req).org, id, query.limit, query.before));
  });
  router.post('/:id/archive', async (req, res) => {
    res.json(await service.archive(adminOf(req).org, templateId(req.params.id)));
  });
  return router;
}

function sendPng(res: Response, png: Buffer): void {
  res.status(200).set({ 'Content-Type': 'image/png', 'Cache-Control': 'no-store' }).end(png);
}

function templateId(value: unknown): string {
  if (typeof value !== 'string' || !isIdOf('tpl', value)) throw new NotFoundError('Template not found');
  return value;
}
