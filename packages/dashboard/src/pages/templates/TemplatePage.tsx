/**
 * One template (`/templates/<id>`): its current version in the designer (saving makes the next one, which becomes
 * current) and its version history, with how many certificates each version still draws.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Link } from '../../mode/links';
import type { Template } from '../../api/types';
import { DataTable } from '../../ui/DataTable';
import { formatDate } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { QueryState } from '../../ui/QueryState';
import { getTemplate, listTemplateVersions } from './templates-api';
import { TemplateDesigner } from './TemplateDesigner';

export function TemplatePage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<Template | null>(null);
  const template = useQuery({ queryKey: ['templates', 'one', id], queryFn: () => getTemplate(id) });
  const versions = useQuery({ queryKey: ['templates', 'versions', id], queryFn: () => listTemplateVersions(id) });
  const current = template.data;
  return (
    <section>
      <p>
        <Link to="/templates">← Templates</Link>
      </p>
      <h1>{current?.name ?? 'Template'}</h1>
      <QueryState isLoading={template.isLoading} error={template.error} what="the template" />
      {current && (
        <>
          <p>
            <code>{current.id}</code> · <span data-testid="template-version">version {current.version}</span> · {humanLabel(current.status)}
          </p>
          {saved && (
            <p role="status" data-testid="template-saved">
              Saved as version {saved.version}: new certificates use it; those issued before keep their version.
            </p>
          )}
          {current.status === 'active' ? (
            <TemplateDesigner key={`${current.id}@${current.version}`} template={current} onSaved={(next) => {
              setSaved(next);
              queryClient.setQueryData(['templates', 'one', id], next);
              void queryClient.invalidateQueries({ queryKey: ['templates'] });
            }} />
          ) : (
            <p className="notice">An archived template can be read but not changed.</p>
          )}
        </>
      )}
      <h2>Version history</h2>
      <DataTable dataMode="shared" query={versions} what="the versions" testId="template-versions" caption="Versions, newest first" columns={['Version', 'Name', 'Made', 'Certificates issued with it']}
        rows={versions.data?.data} rowKey={(version) => version.version}
        renderRow={(version) => (
          <tr data-testid={`template-version-${version.version}`}>
            <td>
              {version.version}
              {version.current && ' (current)'}
            </td>
            <td>{version.name}</td>
            <td>{formatDate(version.created_at)}</td>
            <td>{version.certificates_issued}</td>
          </tr>
        )} />
      {versions.data?.has_more && <p className="hint">Older versions are not shown here; read them through the API.</p>}
    </section>
  );
}
