/** Home: this organization's numbers, a getting-started checklist that ticks itself, and per-day charts. */
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../auth/session';
import { getCredits } from '../billing/billing-api';
import { listCertificates } from '../certificates/certificates-api';
import { Checklist } from './Checklist';
import { DailyChart } from './DailyChart';
import { getMobilitySummary, getSummary, listCertificateKeys, listEndpoints, listMobilityKeys, successRates, todaysJobs } from './home-api';

const counted = (page: { data: unknown[]; has_more?: boolean } | undefined) => (page ? `${page.data.length}${page.has_more ? '+' : ''}` : '…');

export function OverviewPage() {
  const { session } = useSession();
  const summary = useQuery({ queryKey: ['summary'], queryFn: () => getSummary(30) });
  const mobility = useQuery({ queryKey: ['mobility-summary'], queryFn: () => getMobilitySummary(30) });
  const credits = useQuery({ queryKey: ['credits'], queryFn: getCredits });
  const certificateKeys = useQuery({ queryKey: ['api-keys', 'certificate'], queryFn: listCertificateKeys });
  const mobilityKeys = useQuery({ queryKey: ['api-keys', 'mobility'], queryFn: listMobilityKeys });
  const endpoints = useQuery({ queryKey: ['webhooks'], queryFn: listEndpoints });
  const rides = useQuery({ queryKey: ['rides', 'today'], queryFn: () => todaysJobs('rides') });
  const deliveries = useQuery({ queryKey: ['deliveries', 'today'], queryFn: () => todaysJobs('deliveries') });
  const firstCertificate = useQuery({ queryKey: ['certificates', 'any'], queryFn: () => listCertificates(undefined) });
  const keys = [...(certificateKeys.data?.data ?? []), ...(mobilityKeys.data?.data ?? [])];
  const numbers: { label: string; value: string | number | undefined; testId: string }[] = [
    { label: 'Credits left', value: credits.data?.balance, testId: 'credits-left' },
    { label: 'Credits used this month', value: summary.data?.credits_used_this_month, testId: 'credits-used' },
    { label: 'Certificates issued', value: summary.data?.certificates_issued, testId: 'certificates-issued' },
    { label: 'Rides today', value: counted(rides.data), testId: 'rides-today' },
    { label: 'Deliveries today', value: counted(deliveries.data), testId: 'deliveries-today' },
    { label: 'Failing webhook endpoints', value: mobility.data?.failing_endpoints, testId: 'failing-endpoints' },
  ];
  return (
    <section>
      <h1>{session?.organization?.name}</h1>
      <p>
        Signed in as {session?.account.name} ({session?.organization?.role}).
      </p>
      <dl className="numbers" data-testid="home-numbers">
        {numbers.map((number) => (
          <div key={number.testId}>
            <dt>{number.label}</dt>
            <dd data-testid={number.testId}>{number.value ?? '…'}</dd>
          </div>
        ))}
      </dl>
      <Checklist
        state={{
          keyCreated: keys.length > 0,
          keyUsed: keys.some((key) => Boolean(key.last_used_at)),
          endpointRegistered: (endpoints.data?.data.length ?? 0) > 0,
          certificateIssued: (firstCertificate.data?.data.length ?? 0) > 0,
        }}
      />
      {summary.data && (
        <div className="grid-2">
          <DailyChart title="Certificates issued per day (last 30 days)" testId="chart-certificates" data={summary.data.days}
            series={[{ key: 'certificates_issued', label: 'Certificates issued', color: '#1f5fbf' }]} />
          <DailyChart title="Credits used per day (last 30 days)" testId="chart-credits" data={summary.data.days}
            series={[{ key: 'credits_used', label: 'Credits used', color: '#7a4a00' }]} />
        </div>
      )}
      {mobility.data && (
        <div className="grid-2">
          <DailyChart title="Rides and deliveries per day (last 30 days)" testId="chart-trips" data={mobility.data.days}
            series={[{ key: 'rides', label: 'Rides', color: '#1f5fbf' }, { key: 'deliveries', label: 'Deliveries', color: '#7a4a00' }]} />
          <DailyChart title="Webhook success rate per day (last 30 days)" testId="chart-webhooks" data={successRates(mobility.data)} unit="%"
            series={[{ key: 'success_rate', label: 'Answered 2xx', color: '#1b6e3a' }]} />
        </div>
      )}
    </section>
  );
}
