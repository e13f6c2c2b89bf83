import type { FieldIssue } from '@platform/service-kit/errors';
import type { TemplateForIssue } from './templates.service';

/**
 * A certificate's custom field values match its template: every required field has a non-empty value and no value
 * names a field the template does not declare. Without a template, no custom field values are allowed.
 */
export function customFieldIssues(template: TemplateForIssue | null, values: Record<string, string>, prefix: string): FieldIssue[] {
  const declared = template?.customFields ?? [];
  const issues: FieldIssue[] = [];
  for (const field of declared) {
    if (field.required && !values[field.key]?.trim()) issues.push({ path: `${prefix}custom_fields.${field.key}`, message: `is required by the template (${field.label})` });
  }
  for (const key of Object.keys(values)) {
    if (!declared.some((field) => field.key === key)) {
      issues.push({ path: `${prefix}custom_fields.${key}`, message: template ? 'is not a custom field of the template' : 'needs a template_id that declares it' });
    }
  }
  return issues;
}
