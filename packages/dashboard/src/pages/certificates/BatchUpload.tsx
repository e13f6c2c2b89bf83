/** Upload a CSV of certificates: all or nothing; a 422 shows each rejected row beside its errors. */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/http';
import { DataModeLabel } from '../../mode/DataModeLabel';
import { FormError } from '../../ui/FormError';
import { uploadCertificateCsv } from './certificates-api';
import { TemplatePicker } from '../templates/TemplatePicker';
import { rejectedRows, withDefaultColumn } from './csv';

/** FileReader rather than Blob.text(): the same in every browser and in the jsdom the tests run in. */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

export function BatchUpload({ onIssued }: { onIssued: () => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState('');
  const [templateId, setTemplateId] = useState('');
  const mutation = useMutation({
    mutationFn: async () => {
      const text = withDefaultColumn(file ? await readText(file) : '', 'template_id', templateId);
      setCsv(text);
      return uploadCertificateCsv(text);
    },
    onSuccess: onIssued,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) mutation.mutate();
  };
  const rejection = mutation.error instanceof ApiError && mutation.error.status === 422 ? rejectedRows(csv, mutation.error.problem.fields) : null;
  return (
    <form onSubmit={submit} aria-label="Upload certificates CSV" className="card">
      <h2>Batch upload (CSV)</h2>
      <p className="hint">
        <DataModeLabel scope="current" />
      </p>
      <p className="hint">
        Header row with <code>recipient_name</code>, <code>program_title</code>, <code>issue_date</code> and optionally <code>certificate_number</code>,{' '}
        <code>expires_on</code>, <code>template_id</code>, <code>recipient_email</code> (the recipient is mailed), <code>custom_fields.&lt;key&gt;</code>. All rows are issued or none.
      </p>
      <div className="field">
        <label htmlFor={inputId}>CSV file</label>
        <input id={inputId} type="file" accept=".csv,text/csv" data-testid="batch-file" onChange={(event) => { setFile(event.target.files?.[0] ?? null); mutation.reset(); }} />
      </div>
      <TemplatePicker label="Template for rows without a template_id" name="batch_template_id" value={templateId} noneLabel="None (rows without one use the built-in layout)"
        onChange={(id) => { setTemplateId(id); mutation.reset(); }} />
      <button type="submit" disabled={!file || mutation.isPending}>
        Upload
      </button>
      {mutation.isSuccess && (
        <p role="status" data-testid="batch-result">
          Issued {mutation.data.data.length} certificates.
        </p>
      )}
      {mutation.error && !rejection?.rows.length ? <FormError error={mutation.error} /> : null}
      {rejection && rejection.rows.length > 0 && (
        <div role="alert" data-testid="batch-errors">
          <p>Nothing was issued: fix these rows and upload the file again.</p>
          {rejection.general.length > 0 && (
            <ul>
              {rejection.general.map((problem, index) => (
                <li key={index}>{problem.path} {problem.message}</li>
              ))}
            </ul>
          )}
          <div className="table-wrap">
            <table>
              <caption>Rejected rows</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Row</th>
                  <th scope="col">Errors</th>
                </tr>
              </thead>
              <tbody>
                {rejection.rows.map((row) => (
                  <tr key={row.line} data-testid={`rejected-row-${row.line}`}>
                    <td>{row.line}</td>
                    <td>
                      {Object.entries(row.cells).map(([column, value]) => (
                        <div key={column}>
                          <span className="muted">{column}:</span> {value || '(empty)'}
                        </div>
                      ))}
                    </td>
                    <td>
                      <ul>
                        {row.errors.map((error, index) => (
                          <li key={index}>
                            {error.column && <code>{error.column}</code>} {error.message}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </form>
  );
}
