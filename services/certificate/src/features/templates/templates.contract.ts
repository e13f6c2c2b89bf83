import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { documentRendersBusyResponse, invalidAdminTokenResponse, notFoundResponse, payloadTooLargeResponse, previewRenderingResponse, renderQueueFullResponse, templateIdParameter, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { newTemplateSchema, templateListQuery, templatePatchSchema, templateVersionListQuery } from './templates.schema';
import { pageSchema } from '@platform/service-kit/pagination';

export const imageDescriptionSchema = z.object({
  content_type: z.enum(["image/png", "image/jpeg"]).meta({ description: "Found from the bytes, not declared." }),
  width: z.int().meta({ description: "Pixels." }),
  height: z.int().meta({ description: "Pixels." }),
  size_bytes: z.int(),
}).nullable().meta({ id: "ImageDescription" });

export const textBlockSchema = z.object({
  text: z.string().meta({ description: "May hold `{{placeholders}}`." }),
  x: z.number().meta({ description: "Left edge, as a fraction of the page width." }),
  y: z.number().meta({ description: "Top edge, as a fraction of the page height." }),
  width: z.number().meta({ description: "Fraction of the page width; text wraps inside it." }),
  font: z.enum(["sans", "serif", "mono"]).optional(),
  font_size: z.number().meta({ description: "Points." }),
  bold: z.boolean(),
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/).optional(),
  align: z.enum(["left", "center", "right"]),
}).meta({ id: "TextBlock" });

export const templateSchema = z.object({
  id: z.string().regex(/^tpl_/),
  name: z.string(),
  status: z.enum(["active", "archived"]),
  version: z.int().min(1).meta({ description: "The current version; every update adds one." }),
  page_size: z.enum(["A4", "letter"]),
  orientation: z.enum(["landscape", "portrait"]),
  colors: z.object({
    background: z.string(),
    text: z.string(),
    accent: z.string(),
  }),
  font: z.enum(["sans", "serif", "mono"]),
  text_blocks: z.array(textBlockSchema),
  custom_fields: z.array(z.object({
    key: z.string(),
    label: z.string(),
    required: z.boolean(),
  })),
  qr_code: z.object({
    x: z.number(),
    y: z.number(),
    size: z.number().meta({ description: "Fraction of the page width." }),
  }),
  logo_placement: z.object({
    x: z.number(),
    y: z.number(),
    width: z.number(),
  }),
  date_format: z.enum(["long", "us", "iso", "us_numeric"]).meta({ description: "How `{{issue_date}}` is written on the document: `long` 26 November 2026, `us` November 26, 2026, `iso` 2026-11-26, `us_numeric` 11/26/2026." }),
  frame: z.object({
    style: z.enum(["none", "single", "double"]),
    color: z.string().regex(/^#[0-9A-Fa-f]{6}$/).optional(),
  }).meta({ description: "A border inside the page edge, in `color` (the accent colour when absent)." }),
  signature_placement: z.object({
    x: z.number(),
    y: z.number(),
    width: z.number(),
  }).meta({ description: "Where the signature image goes (top-left corner and width, fractions of the page), when the template has one." }),
  signature_label: z.string().meta({ description: "Printed under the signature (absent when none)." }).optional(),
  issuer_name: z.string().meta({ description: "The issuer the document names; absent: the organization's name." }).optional(),
  background_image: imageDescriptionSchema,
  logo: imageDescriptionSchema,
  signature_image: imageDescriptionSchema,
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  archived_at: z.iso.datetime({ offset: true }).nullable(),
}).meta({ id: "Template" });

export const templateVersionSchema = z.object({
  version: z.int().min(1),
  name: z.string().meta({ description: "The template's name in this version." }),
  current: z.boolean().meta({ description: "Whether this is the version new certificates are issued with." }),
  created_at: z.iso.datetime({ offset: true }),
  certificates_issued: z.int().min(0).meta({ description: "Certificates issued with this version (they keep it)." }),
}).meta({ id: "TemplateVersion" });

export const templateVersionListSchema = z.object({
  data: z.array(templateVersionSchema),
  has_more: z.boolean(),
  next_before: z.int().nullable().meta({ description: "Pass as `before` for the next (older) page." }),
}).meta({ id: "TemplateVersionList" });

export const templateListSchema = pageSchema(templateSchema, { cursorDescription: "Pass as `starting_after` for the next page." }).meta({ id: "TemplateList" });

export const templateRoleResponse: ResponseObjectSpec = { id: 'TemplateRole', description: "Templates are for owners and members (`insufficient_role`).", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/insufficient_role", "title": "Forbidden", "status": 403, "detail": "This action needs the owner or member role", "error": "This action needs the owner or member role", "code": "insufficient_role"}} };

export const templateConflictResponse: ResponseObjectSpec = { id: 'TemplateConflict', description: "The template is archived (`template_archived`) or changed while this update was made (`template_changed`).", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/template_archived", "title": "Conflict", "status": 409, "detail": "An archived template cannot be changed", "error": "An archived template cannot be changed", "code": "template_archived"}} };

/** What every template operation shares: its tag, the admin JWT, and the roles that design templates (owners and members). */
const adminTemplates = { tags: ["Admin templates"], security: [{"adminJwt": []}], roles: ['owner', 'member'] as const };

/** What every operation on one template shares: the admin tag and JWT, and the template's id. */
const oneTemplate = { ...adminTemplates, params: z.object({ id: templateIdParameter }) };

/** How a template call is refused for its caller: no usable admin JWT, or a role that may not touch templates. */
const templateRefused = { 401: invalidAdminTokenResponse, 403: templateRoleResponse };

/** Templates carry base64 images, so their JSON bodies may be up to 3 MB (other admin bodies: 100 kB). */
const TEMPLATE_BODY_LIMIT = '3mb';

/** How a template body is refused: too large, not JSON, or not a valid template. */
const bodyRefused = { 413: payloadTooLargeResponse, 415: unsupportedMediaTypeResponse, 422: validationFailedResponse };

export const templatesRouteTable = [
  route({
    operationId: 'createTemplate',
    method: 'post',
    path: '/admin/v1/templates',
    ...adminTemplates,
    body: newTemplateSchema,
    bodyLimit: TEMPLATE_BODY_LIMIT,
    cost: 'render',
    audit: 'template.created',
    responses: {
      201: templateSchema,
      ...templateRefused,
      ...bodyRefused,
      503: documentRendersBusyResponse,
    },
  }),
  route({
    operationId: 'listTemplates',
    method: 'get',
    path: '/admin/v1/templates',
    ...adminTemplates,
    query: templateListQuery,
    responses: {
      200: templateListSchema,
      ...templateRefused,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'previewTemplate',
    method: 'post',
    path: '/admin/v1/templates/preview',
    ...adminTemplates,
    body: newTemplateSchema,
    bodyLimit: TEMPLATE_BODY_LIMIT,
    cost: 'render',
    audit: { exempt: 'A preview: draws the document from the upload and stores nothing.' },
    responses: {
      200: { content: { "image/png": z.string().meta({ format: "binary" }) } },
      202: previewRenderingResponse,
      ...templateRefused,
      ...bodyRefused,
      503: renderQueueFullResponse,
    },
  }),
  route({
    operationId: 'getTemplate',
    method: 'get',
    path: '/admin/v1/templates/{id}',
    ...oneTemplate,
    responses: {
      200: templateSchema,
      ...templateRefused,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'updateTemplate',
    method: 'patch',
    path: '/admin/v1/templates/{id}',
    ...oneTemplate,
    body: templatePatchSchema,
    bodyLimit: TEMPLATE_BODY_LIMIT,
    cost: 'render',
    audit: 'template.updated',
    responses: {
      200: templateSchema,
      ...templateRefused,
      404: notFoundResponse,
      409: templateConflictResponse,
      ...bodyRefused,
      503: documentRendersBusyResponse,
    },
  }),
  route({
    operationId: 'previewTemplateUpdate',
    method: 'post',
    path: '/admin/v1/templates/{id}/preview',
    ...oneTemplate,
    body: templatePatchSchema,
    bodyLimit: TEMPLATE_BODY_LIMIT,
    cost: 'render',
    audit: { exempt: 'A preview of an edit: draws the document and changes nothing stored.' },
    responses: {
      200: { content: { "image/png": z.string().meta({ format: "binary" }) } },
      202: previewRenderingResponse,
      ...templateRefused,
      404: notFoundResponse,
      409: templateConflictResponse,
      ...bodyRefused,
      503: renderQueueFullResponse,
    },
  }),
  route({
    operationId: 'listTemplateVersions',
    method: 'get',
    path: '/admin/v1/templates/{id}/versions',
    ...oneTemplate,
    query: templateVersionListQuery,
    responses: {
      200: templateVersionListSchema,
      ...templateRefused,
      404: notFoundResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'archiveTemplate',
    method: 'post',
    path: '/admin/v1/templates/{id}/archive',
    ...oneTemplate,
    audit: 'template.archived',
    responses: {
      200: templateSchema,
      ...templateRefused,
      404: notFoundResponse,
    },
  }),
] as const;
