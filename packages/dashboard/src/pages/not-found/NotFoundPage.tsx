/** Any dashboard path no page answers: said plainly, with the way back (never a silent jump to the overview). */
import { useLocation } from 'react-router';
import { Link } from '../../mode/links';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section data-testid="not-found">
      <h1>Page not found</h1>
      <p>
        There is no dashboard page at <code>{pathname}</code>.
      </p>
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </section>
  );
}
