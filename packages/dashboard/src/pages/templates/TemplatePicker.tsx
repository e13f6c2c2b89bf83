/**
 * Where a template is asked for (issuing one certificate, a CSV batch): a select of the organization's active
 * templates by name and current version, instead of a raw ID; "none" is the built-in layout.
 */
import { useQuery } from '@tanstack/react-query';
import type { Template } from '../../api/types';
import { SelectField } from '../../ui/fields';
import { listTemplates } from './templates-api';

export function TemplatePicker({ label = 'Template', name = 'template_id', value, onChange, error, noneLabel = 'None (the built-in layout)', hint }: {
  label?: string;
  name?: string;
  value: string;
  /** The id chosen ('' for none), and that template (its custom fields, say). */
  onChange: (id: string, template: Template | undefined) => void;
  error?: unknown;
  noneLabel?: string;
  hint?: string;
}) {
  // The first 100 active templates, newest first: more than an organization keeps in use.
  const templates = useQuery({ queryKey: ['templates', 'picker'], queryFn: () => listTemplates(undefined, 'active', 100) });
  const options = [
    { value: '', label: templates.isLoading ? 'Loading templates…' : noneLabel },
    ...(templates.data?.data ?? []).map((template) => ({ value: template.id, label: `${template.name} · version ${template.version}` })),
  ];
  return (
    <SelectField label={label} name={name} value={value} error={error} onChange={(event) => onChange(event.target.value, templates.data?.data.find((template) => template.id === event.target.value))} options={options}
      hint={templates.error ? 'The templates could not be loaded; the built-in layout is used.' : hint} />
  );
}
