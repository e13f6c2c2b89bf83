/** One program: its spend bar, issuing passes (form or CSV), the codes with copy and revoke, and closing it. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { DataModeLabel, ModeLock, useModeLocked } from '../../mode/DataModeLabel';
import { Link } from '../../mode/links';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { CopyButton } from '../../ui/CopyButton';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate, formatMoney } from '../../ui/format';
import { humanLabel } from '../../ui/labels';
import { QueryState } from '../../ui/QueryState';
import { attendeesFromCsv, closeProgram, getProgram, issuePasses, listPasses, revokePass, RIDES_COVERED, type Attendee, type EventPass, type Program } from './event-passes-api';
import { PASS_VALUES } from '../../ui/list-columns';

function SpendBar({ program }: { program: Program }) {
  const { budget, currency, usage } = program;
  const share = (amount: number) => `${Math.min(100, (amount / budget) * 100)}%`;
  const money = (amount: number) => formatMoney({ amount, currency });
  const parts = [
    { label: 'Total', value: budget, testId: 'spend-total' },
    { label: 'Spent', value: usage.amount_spent, testId: 'spend-spent' },
    { label: 'Reserved', value: usage.amount_reserved, testId: 'spend-reserved' },
    { label: 'Left', value: usage.budget_left, testId: 'spend-left' },
  ];
  return (
    <div className="card" data-testid="spend-bar">
      <div className="spend" role="img" aria-label={`Spent ${money(usage.amount_spent)}, reserved ${money(usage.amount_reserved)}, left ${money(usage.budget_left)} of ${money(budget)}`}>
        <span className="spent" style={{ width: share(usage.amount_spent) }} />
        <span className="reserved" style={{ width: share(usage.amount_reserved) }} />
      </div>
      <dl className="legend">
        {parts.map((part) => (
          <div key={part.label}>
            <dt>{part.label}</dt>
            <dd data-testid={part.testId}>{money(part.value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function IssueForms({ programId, onIssued }: { programId: string; onIssued: () => void }) {
  const [csvError, setCsvError] = useState<string | null>(null);
  const issue = useMutation({ mutationFn: (body: { count: number } | { attendees: Attendee[] }) => issuePasses(programId, body), onSuccess: onIssued });
  const byForm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const reference = String(form.get('reference') ?? '').trim();
    const name = String(form.get('name') ?? '').trim();
    const count = Number(form.get('count') || 1);
    // Issued: the form is emptied for the next attendee (a failure keeps what was typed).
    issue.mutate(reference || name ? { attendees: [{ ...(reference ? { reference } : {}), ...(name ? { name } : {}) }] } : { count }, { onSuccess: () => element.reset() });
  };
  const byCsv = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCsvError(null);
    const file = (event.currentTarget.elements.namedItem('file') as HTMLInputElement).files?.[0];
    if (!file) return setCsvError('Choose a CSV file first.');
    try {
      issue.mutate({ attendees: attendeesFromCsv(await file.text()) });
    } catch (error) {
      setCsvError((error as Error).message);
    }
  };
  return (
    <div className="grid-2">
      <form aria-label="Issue passes" className="card" onSubmit={byForm}>
        <h2>Issue passes</h2>
        <p className="hint">
          <DataModeLabel scope="live-only" />
        </p>
        <p className="hint">One pass for an attendee (reference and/or name), or a number of anonymous passes.</p>
        <ModeLock scope="live-only" subject="Event passes">
        <div className="field">
          <label htmlFor="pass-reference">Attendee reference</label>
          <input id="pass-reference" name="reference" />
        </div>
        <div className="field">
          <label htmlFor="pass-name">Attendee name</label>
          <input id="pass-name" name="name" />
        </div>
        <div className="field">
          <label htmlFor="pass-count">Or how many anonymous passes</label>
          <input id="pass-count" name="count" type="number" min="1" max="1000" defaultValue="1" />
        </div>
        <button type="submit" disabled={issue.isPending}>
          Issue
        </button>
        </ModeLock>
      </form>
      <form aria-label="Upload attendees CSV" className="card" onSubmit={byCsv}>
        <h2>Upload attendees</h2>
        <p className="hint">
          <DataModeLabel scope="live-only" />
        </p>
        <ModeLock scope="live-only" subject="Event passes">
        <p className="hint" id="csv-hint">
          A CSV with a header row of <code>reference,name</code>; one pass per row (up to 1,000).
        </p>
        <div className="field">
          <label htmlFor="pass-csv">CSV file</label>
          <input id="pass-csv" name="file" type="file" accept=".csv,text/csv" aria-describedby="csv-hint" data-testid="pass-csv" />
        </div>
        {csvError && <p className="form-error" role="alert">{csvError}</p>}
        <button type="submit" disabled={issue.isPending}>
          Upload and issue
        </button>
        </ModeLock>
      </form>
      <FormError error={issue.error} />
      {issue.isSuccess && (
        <p role="status" data-testid="issued">
          Issued {issue.data.data.length} pass{issue.data.data.length === 1 ? '' : 'es'}.
        </p>
      )}
    </div>
  );
}

/** Newest first, as issued; the passes of one batch (issued together) by attendee reference, then name. */
function inIssueOrder(passes: EventPass[]): EventPass[] {
  const attendee = (pass: EventPass) => `${pass.attendee.reference ?? ''}\u0000${pass.attendee.name ?? ''}`;
  return [...passes].sort((a, b) => b.created_at.localeCompare(a.created_at) || attendee(a).localeCompare(attendee(b)));
}

export function EventPassProgramPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const program = useQuery({ queryKey: ['event-pass-programs', id], queryFn: () => getProgram(id) });
  const passes = useQuery({ queryKey: ['event-pass-programs', id, 'passes'], queryFn: () => listPasses(id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['event-pass-programs'] });
  const revoke = useMutation({ mutationFn: (passId: string) => revokePass(id, passId), onSuccess: refresh });
  const close = useMutation({ mutationFn: () => closeProgram(id), onSuccess: refresh });
  const data = program.data;
  // Event passes are live only: in test mode the live program is shown, but nothing on it can be changed.
  const locked = useModeLocked('live-only');
  return (
    <section>
      <p>
        <Link to="/event-passes">← All programs</Link>
      </p>
      <h1>{data ? data.name : 'Event pass program'}</h1>
      <QueryState isLoading={program.isLoading} error={program.error} what="the program" />
      <FormError error={revoke.error ?? close.error} />
      {data && (
        <>
          <dl className="details">
            <dt>Status</dt>
            <dd data-testid="program-status">{humanLabel(data.status)}</dd>
            <dt>Valid</dt>
            <dd>
              {formatDate(data.valid_from)} – {formatDate(data.valid_until)}
            </dd>
            <dt>Area</dt>
            <dd>
              {data.venue.address ? `${data.venue.address}, ` : ''}within {data.venue.radius_m} m of {data.venue.lat}, {data.venue.lng} ({RIDES_COVERED[data.applies_to]})
            </dd>
            <dt>Rides per pass</dt>
            <dd>{data.rides_per_pass}</dd>
            <dt>Most covered per ride</dt>
            <dd>{formatMoney({ amount: data.max_fare_per_ride, currency: data.currency })}</dd>
            <dt>Passes issued / rides redeemed</dt>
            <dd>
              {data.usage.passes_issued} / {data.usage.rides_redeemed}
            </dd>
          </dl>
          <SpendBar program={data} />
          {data.status === 'open' ? (
            <>
              <IssueForms programId={id} onIssued={refresh} />
              {!locked && <p>
                <ConfirmButton className="danger" question={`Close ${data.name}? Its passes take no new rides.`} onConfirm={() => close.mutate()}>
                  Close program
                </ConfirmButton>
              </p>}
            </>
          ) : (
            <p className="notice">This program is closed: its passes take no new rides.</p>
          )}
        </>
      )}
      <DataTable dataMode="live-only" query={passes} what="the passes" testId="passes" caption="Passes" columns={['Code', 'Attendee', 'Status', 'Rides used / left', 'Actions']}
        rows={passes.data && inIssueOrder(passes.data.data)} rowKey={(pass) => pass.id} values={PASS_VALUES} exportName="event-passes"
        empty="No passes yet. Issue them with the forms above (a count, or a CSV of attendees)."
        renderRow={(pass) => (
          <tr data-testid={`pass-${pass.id}`}>
            <td>
              <code data-testid="pass-code">{pass.code}</code> <CopyButton text={pass.code} name={`Copy code ${pass.code}`} />
            </td>
            <td>{[pass.attendee.reference, pass.attendee.name].filter(Boolean).join(' · ') || '—'}</td>
            <td data-testid="pass-status">{humanLabel(pass.status)}</td>
            <td>
              {pass.rides_used} / {pass.rides_left}
            </td>
            <td>
              {pass.status === 'active' && !locked && (
                <ConfirmButton className="danger" question={`Revoke ${pass.code}?`} onConfirm={() => revoke.mutate(pass.id)}>
                  Revoke
                </ConfirmButton>
              )}
            </td>
          </tr>
        )} />
    </section>
  );
}
