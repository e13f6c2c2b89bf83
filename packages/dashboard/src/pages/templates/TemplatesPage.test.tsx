import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, problem } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const template = { id: 'tpl_1', name: 'Course completion', status: 'active', version: 1, updated_at: '2026-11-26T10:00:00Z' };

describe('templates', () => {
  it('creates a template from the form, shows a refused placeholder under its line, and archives', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const templates: object[] = [];
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/templates': () => ({ body: { data: templates, has_more: false, next_cursor: null } }),
      'POST /dashboard/api/certificate/templates': (request) => {
        const body = request.body as { text_blocks: { text: string }[] };
        if (body.text_blocks[1]!.text.includes('{{grade}}'))
          return problem(422, 'validation_failed', 'The request is invalid', [{ path: 'text_blocks.1.text', message: 'uses an unknown placeholder {{grade}}' }]);
        templates.push(template);
        return { status: 201, body: template };
      },
      'POST /dashboard/api/certificate/templates/tpl_1/archive': { body: { ...template, status: 'archived' } },
    });
    const { user } = renderApp('/templates');
    await user.type(await screen.findByLabelText('Template name'), 'Course completion');
    await user.clear(screen.getByLabelText('Recipient line'));
    await user.type(screen.getByLabelText('Recipient line'), '{{{{recipient_name}} {{{{grade}}');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    expect((await screen.findByTestId('error-text_blocks.1.text')).textContent).toBe('uses an unknown placeholder {{grade}}');

    await user.clear(screen.getByLabelText('Recipient line'));
    await user.type(screen.getByLabelText('Recipient line'), '{{{{recipient_name}}');
    await user.click(screen.getByRole('button', { name: 'Create template' }));
    expect(await screen.findByText('tpl_1')).toBeTruthy();
    expect(api.calls('POST /dashboard/api/certificate/templates')[1]!.body).toMatchObject({
      name: 'Course completion',
      page_size: 'A4',
      orientation: 'landscape',
      font: 'serif',
      colors: { background: '#FFFFFF', text: '#1F2933', accent: '#1D4ED8' },
      text_blocks: [{ text: 'Certificate of Completion' }, { text: '{{recipient_name}}' }, { text: '{{program_title}} — {{issue_date}}' }],
    });
    await user.click(screen.getByRole('button', { name: 'Archive' }));
    expect(api.calls('POST /dashboard/api/certificate/templates/tpl_1/archive')).toHaveLength(1);
  });
});
