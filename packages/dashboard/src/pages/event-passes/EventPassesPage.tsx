/** Event pass programs: create one, list them with usage, open one, close one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useModeLocked } from '../../mode/DataModeLabel';
import { Link, useNavigate } from '../../mode/links';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable } from '../../ui/DataTable';
import { FormError } from '../../ui/FormError';
import { formatDate, formatMoney } from '../../ui/format';
import { QueryState } from '../../ui/QueryState';
import { humanLabel } from '../../ui/labels';
import { CreateProgramForm } from './CreateProgramForm';
import { closeProgram, listPrograms } from './event-passes-api';
import { PROGRAM_VALUES } from '../../ui/list-columns';

export function EventPassesPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const programs = useQuery({ queryKey: ['event-pass-programs'], queryFn: listPrograms });
  const close = useMutation({ mutationFn: closeProgram, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['event-pass-programs'] }) });
  // Event passes are live only: in test mode the live programs are listed, but none can be closed.
  const locked = useModeLocked('live-only');
  return (
    <section>
      <h1>Event pass programs</h1>
      <QueryState isLoading={programs.isLoading} error={programs.error} what="event pass programs" />
      <FormError error={close.error} />
      <CreateProgramForm onCreated={(program) => navigate(`/event-passes/${encodeURIComponent(program.id)}`)} />
      <DataTable dataMode="live-only" caption="Programs" columns={['Name', 'Status', 'Valid', 'Budget left', 'Passes / rides', 'Actions']}
        rows={programs.data?.data} rowKey={(program) => program.id} values={PROGRAM_VALUES} exportName="event-pass-programs"
        empty="No programs yet. Create one above, then issue its passes."
        renderRow={(program) => (
          <tr>
            <td>
              <Link to={`/event-passes/${encodeURIComponent(program.id)}`}>{program.name}</Link>
            </td>
            <td>{humanLabel(program.status)}</td>
            <td>
              {formatDate(program.valid_from)} – {formatDate(program.valid_until)}
            </td>
            <td>{formatMoney({ amount: program.usage.budget_left, currency: program.currency })}</td>
            <td>
              {program.usage.passes_issued} / {program.usage.rides_redeemed}
            </td>
            <td>
              {program.status === 'open' && !locked && (
                <ConfirmButton className="danger" question={`Close ${program.name}?`} onConfirm={() => close.mutate(program.id)}>
                  Close
                </ConfirmButton>
              )}
            </td>
          </tr>
        )} />
    </section>
  );
}
