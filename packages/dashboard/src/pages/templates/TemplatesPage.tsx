/** Templates: the designer for a new one, and the list of current versions (a page at a time); each opens its page. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
  return (
    <section>
      <h1>Templates</h1>
      <p className="hint">Pick a template by name when issuing certificates. Editing a template makes a new version; certificates keep the version they were issued with.</p>
      <TemplateDesigner onSaved={() => { list.toFirstPage(); void queryClient.invalidateQueries({ queryKey: ['templates'] }); }} />
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
