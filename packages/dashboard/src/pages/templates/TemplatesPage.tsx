/**
 * Templates: the designer for a new one, and the list of current versions (a page at a time); each opens its page.
 * Creating one starts the designer over (every field and chosen file cleared) and says so, with a link to the new one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Template } from '../../api/types';
import { Link } from '../../mode/links';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { usePagedList } from '../../ui/usePagedList';
import { archiveTemplate, listTemplates } from './templates-api';
import { TemplateDesigner } from './TemplateDesigner';

export function TemplatesPage() {
  const queryClient = useQueryClient();
  const list = usePagedList({ queryKey: ['templates', 'page'], fetchPage: (cursor) => listTemplates(cursor) });
  const page = list.query;
  const archive = useMutation({ mutationFn: archiveTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }) });
  const [created, setCreated] = useState<{ template: Template; round: number } | null>(null);
  return (
    <section>
      <h1>Templates</h1>
      <p className="hint">Pick a template by name when issuing certificates. Editing a template makes a new version; certificates keep the version they were issued with.</p>
      {created && (
        <p role="status" className="notice" data-testid="template-created">
          Created <Link to={`/templates/${encodeURIComponent(created.template.id)}`}>{created.template.name}</Link> (version {created.template.version}); the form is
          ready for another.
        </p>
      )}
      {/* A new designer after each creation: a file input cannot be cleared by state, only by a fresh element. */}
      <TemplateDesigner key={created?.round ?? 0} onSaved={(template) => {
        setCreated((before) => ({ template, round: (before?.round ?? 0) + 1 }));
        list.toFirstPage();
        void queryClient.invalidateQueries({ queryKey: ['templates'] });
      }} />
      <QueryState isLoading={page.isLoading} error={page.error} what="templates" />
      <FormError error={archive.error} />
      <DataTable dataMode="shared" caption="Templates at their current version, newest first" columns={['Name', 'ID', 'Version', 'Status', 'Updated', 'Actions']}
        rows={page.data?.data} rowKey={(template) => template.id} empty="No templates yet."
        renderRow={(template) => (
          <tr data-testid={`template-${template.id}`}>
            <td>
              <Link to={`/templates/${encodeURIComponent(template.id)}`}>{template.name}</Link>
            </td>
            <td>
              <code>{template.id}</code>
            </td>
            <td>{template.version}</td>
            <td>{humanLabel(template.status)}</td>
            <td>{formatDate(template.updated_at)}</td>
            <td>
              {template.status === 'active' && (
                <ConfirmButton className="danger" question={`Archive ${template.name}?`} onConfirm={() => archive.mutate(template.id)}>
                  Archive
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
        footer={<Pager label="Template pages" {...list.pager} />} />
    </section>
  );
}
