import { createCanvas } from '@napi-rs/canvas';
import request from 'supertest';
import type { TestContext } from '../helpers/context';
import type { TestOrg } from './admin';

/** A real PNG of the given size, as base64. */
export function pngBase64(width = 8, height = 8, color = '#8A5A00'): string {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = color;
  context.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png').toString('base64');
}

export function jpegBase64(width = 8, height = 8): string {
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').fillRect(0, 0, width, height);
  return canvas.toBuffer('image/jpeg').toString('base64');
}

export function templateInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Course completion',
    custom_fields: [{ key: 'grade', label: 'Grade', required: true }],
    text_blocks: [
      { text: 'Certificate of Completion', x: 0.1, y: 0.1, width: 0.8, font_size: 32, bold: true },
      { text: '{{recipient_name}}', x: 0.1, y: 0.3, width: 0.8, font_size: 28 },
      { text: '{{program_title}} — grade {{grade}}', x: 0.1, y: 0.45, width: 0.8 },
      { text: '{{verification_url}}', x: 0.05, y: 0.9, width: 0.7, font_size: 10, align: 'left' },
    ],
    ...overrides,
  };
}

export async function createTemplate(ctx: TestContext, org: TestOrg, overrides: Record<string, unknown> = {}) {
  const res = await request(ctx.app).post('/admin/v1/templates').set('Authorization', org.admin()).send(templateInput(overrides)).expect(201);
  return res.body as { id: string; version: number; status: string };
}
