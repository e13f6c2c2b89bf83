/** Templates: create from a few choices, list (a page at a time), archive. Finer layouts go through the API. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../ui/FormError';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { Pager } from '../../ui/Pager';
import { QueryState } from '../../ui/QueryState';
import { NewTemplateForm } from './NewTemplateForm';
import { archiveTemplate, listTemplates } from './templates-api';


export function TemplatesPage() {
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({ queryKey: ['templates', cursor], queryFn: () => listTemplates(cursor) });
  const archive = useMutation({ mutationFn: archiveTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }) });
  return (
    <section>
      <h1>Templates</h1>
      <p className="hint">Use a template's ID in the issue form or a CSV's <code>template_id</code> column.</p>
      <NewTemplateForm onCreated={() => { setCursors([undefined]); void queryClient.invalidateQueries({ queryKey: ['templates'] }); }} />
      <QueryState isLoading={page.isLoading} error={page.error} what="templates" />
      <FormError error={archive.error} />
      {page.data && (
        <>
          <div className="table-wrap">
            <table>
              <caption>Templates, newest first</caption>
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
                  <tr key={template.id}>
                    <td>{template.name}</td>
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
