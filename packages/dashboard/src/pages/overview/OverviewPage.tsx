import { Link } from 'react-router';
import { useSession } from '../../auth/session';

export function OverviewPage() {
  const { session } = useSession();
  return (
    <section>
      <h1>{session?.organization?.name}</h1>
      <p>
        Signed in as {session?.account.name} ({session?.organization?.role}).
      </p>
      <ul className="tiles">
        <li><Link to="/certificates">Issue and manage certificates</Link></li>
        <li><Link to="/billing">Credits and plan</Link></li>
        <li><Link to="/api-keys/certificate">Certificate API keys</Link></li>
        <li><Link to="/api-keys/mobility">Mobility API keys</Link></li>
        <li><Link to="/rides">Rides</Link> and <Link to="/deliveries">deliveries</Link></li>
        <li><Link to="/webhooks">Webhook endpoints</Link></li>
        <li><Link to="/members">Members and invitations</Link></li>
        <li><Link to="/organizations/new">Create another organization</Link></li>
      </ul>
    </section>
  );
}
