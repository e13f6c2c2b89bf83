import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { errorMessage } from '../ui/problems';

/** Lists the account's organizations; choosing one renews the session in it. */
export function OrganizationSwitcher() {
  const { session, switchOrganization } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  if (!session) return null;
  const current = session.organization?.id ?? '';
  const change = async (value: string) => {
    setError(null);
    if (value === '__new') return navigate('/organizations/new');
    try {
      await switchOrganization(value);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <div className="org-switcher">
      <label htmlFor="organization-switcher">Organization</label>
      <select id="organization-switcher" data-testid="organization-switcher" value={current} onChange={(event) => change(event.target.value)}>
        {!current && <option value="">None</option>}
        {session.memberships.map((membership) => (
          <option key={membership.organization_id} value={membership.organization_id}>
            {membership.organization_name} ({membership.role})
          </option>
        ))}
        <option value="__new">+ New organization…</option>
      </select>
      {error ? <span role="alert">{errorMessage(error)}</span> : null}
    </div>
  );
}
