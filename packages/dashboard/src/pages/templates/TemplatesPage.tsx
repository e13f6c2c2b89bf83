/** Templates: the designer for a new one, and the list of current versions (a page at a time); each opens its page. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { archiveTemplate, listTemplates } from './templates-api';
import { TemplateDesigner } from './TemplateDesigner';

export function TemplatesPage() {
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({ queryKey: ['templates', 'page', cursor], queryFn: () => listTemplates(cursor) });
  const archive = useMutation({ mutationFn: archiveTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }) });
  return (
    <section>
      <h1>Templates</h1>
      <p className="hint">Pick a template by name when issuing certificates. Editing a template makes a new version; certificates keep the version they were issued with.</p>
      <TemplateDesigner onSaved={() => { setCursors([undefined]); void queryClient.invalidateQueries({ queryKey: ['templates'] }); }} />
      <QueryState isLoading={page.isLoading} error={page.error} what="templates" />
      <FormError error={archive.error} />
      {page.data && (
        <>
          <div className="table-wrap">
            <table>
              <caption>Templates at their current version, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">ID</th>
                  <th scope="col">Version</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.data.data.length === 0 && (
                  <tr>
                    <td colSpan={6}>No templates yet.</td>
                  </tr>
                )}
                {page.data.data.map((template) => (
                  <tr key={template.id} data-testid={`template-${template.id}`}>
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
                        <button type="button" className="danger" onClick={() => window.confirm(`Archive ${template.name}?`) && archive.mutate(template.id)}>
                          Archive
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Template pages" hasPrevious={cursors.length > 1} hasNext={Boolean(page.data.has_more)}
            onPrevious={() => setCursors(cursors.slice(0, -1))} onNext={() => setCursors([...cursors, page.data.next_cursor ?? undefined])} />
        </>
      )}
    </section>
  );
}
