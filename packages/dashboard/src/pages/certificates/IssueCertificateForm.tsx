import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Certificate, NewCertificate, Template } from '../../api/types';
import { CardForm } from '../../ui/CardForm';
import { TextField } from '../../ui/fields';
import { TemplatePicker } from '../templates/TemplatePicker';
import { issueCertificate } from './certificates-api';

const EMPTY = { recipient_name: '', recipient_email: '', program_title: '', issue_date: '', certificate_number: '', expires_on: '', template_id: '' };
const FIELDS = [...Object.keys(EMPTY), 'custom_fields'];

/** Issues one certificate for one credit; empty optional fields are left out. */
export function IssueCertificateForm({ onIssued }: { onIssued: (certificate: Certificate) => void }) {
  const [form, setForm] = useState(EMPTY);
  // The picked template's custom fields, asked for below it.
  const [customFields, setCustomFields] = useState<Template['custom_fields']>([]);
  const [customValues, setCustomValues] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: () => {
      const body = Object.fromEntries(Object.entries(form).filter(([, value]) => value.trim() !== '')) as unknown as NewCertificate;
      const custom = Object.fromEntries(Object.entries(customValues).filter(([, value]) => value.trim() !== ''));
      return issueCertificate(Object.keys(custom).length ? { ...body, custom_fields: custom } : body);
    },
    onSuccess: (certificate) => {
      setForm(EMPTY);
      setCustomFields([]);
      setCustomValues({});
      onIssued(certificate);
    },
  });
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  return (
    <CardForm dataMode="current" label="Issue a certificate" title="Issue a certificate" error={mutation.error} fields={FIELDS} onSubmit={() => mutation.mutate()}>
      <TextField label="Recipient name" name="recipient_name" required value={form.recipient_name} error={mutation.error} onChange={set('recipient_name')} />
      <TextField label="Recipient email (optional)" hint="The recipient is mailed links to the certificate." name="recipient_email" type="email" value={form.recipient_email} error={mutation.error} onChange={set('recipient_email')} />
      <TextField label="Program title" name="program_title" required value={form.program_title} error={mutation.error} onChange={set('program_title')} />
      <TextField label="Issue date" name="issue_date" type="date" required value={form.issue_date} error={mutation.error} onChange={set('issue_date')} />
      <TextField label="Certificate number (optional)" name="certificate_number" value={form.certificate_number} error={mutation.error} onChange={set('certificate_number')} />
      <TextField label="Expires on (optional)" name="expires_on" type="date" value={form.expires_on} error={mutation.error} onChange={set('expires_on')} />
      <TemplatePicker label="Template (optional)" value={form.template_id} error={mutation.error} onChange={(template_id, template) => {
        setForm({ ...form, template_id });
        setCustomFields(template?.custom_fields ?? []);
        setCustomValues({});
      }} />
      {customFields.map((field) => (
        <TextField key={field.key} label={field.required ? field.label : `${field.label} (optional)`} name={`custom_fields.${field.key}`} required={field.required}
          value={customValues[field.key] ?? ''} error={mutation.error} onChange={(event) => setCustomValues({ ...customValues, [field.key]: event.target.value })} />
      ))}
      <button type="submit" disabled={mutation.isPending}>
        Issue certificate
      </button>
      {mutation.isSuccess && (
        <p role="status" data-testid="issued-certificate">
          Issued {mutation.data.certificate_number}, verification code <code>{mutation.data.verification_code}</code>.
          {mutation.data.recipient_email && ` A mail to ${mutation.data.recipient_email} is on its way.`}
        </p>
      )}
    </CardForm>
  );
}
