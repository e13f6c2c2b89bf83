/**
 * Which data a list or form acts on, shown beside it: "Test data" / "Live data" for what exists in both modes (it acts
 * in the page's mode), "Live data only" for what has no test data (billing, event passes: its forms are off in test
 * mode), "Same in live and test" for what does not depend on the mode (members, templates, drivers).
 */
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { pathInMode } from './data-mode';
import { useDataMode } from './useDataMode';

export type DataScope = 'current' | 'live-only' | 'shared';

export function DataModeLabel({ scope }: { scope: DataScope }) {
  const { mode } = useDataMode();
  if (scope === 'shared') return <span className="badge" data-testid="data-mode-label">Same in live and test</span>;
  if (scope === 'live-only') return <span className="badge badge-live" data-testid="data-mode-label">Live data only</span>;
  return (
    <span className={`badge badge-${mode}`} data-testid="data-mode-label">
      {mode === 'test' ? 'Test data' : 'Live data'}
    </span>
  );
}

/** Whether a form of `scope` is off here: a live-only form in test mode. */
export function useModeLocked(scope: DataScope): boolean {
  const { mode } = useDataMode();
  return scope === 'live-only' && mode === 'test';
}

/**
 * Said above a live-only form in test mode, whose controls are then disabled. `subject` names what has no test mode
 * ("Event passes"): "Event passes are live only, …"; without it the notice says "This works on live data only, …".
 */
export function LiveOnlyNotice({ subject }: { subject?: string }) {
  const { pathname } = useLocation();
  return (
    <p role="note" data-testid="live-only-notice">
      {subject ? `${subject} are live only` : 'This works on live data only'}, so it is off in test mode: <Link to={pathInMode(pathname, 'live')}>switch to live</Link>.
    </p>
  );
}

/** A live-only form's controls in test mode: its notice, then the controls disabled (submit included). */
export function ModeLock({ scope, subject, children }: { scope: DataScope; subject?: string; children: ReactNode }) {
  const locked = useModeLocked(scope);
  if (!locked) return <>{children}</>;
  return (
    <>
      <LiveOnlyNotice subject={subject} />
      <fieldset disabled className="mode-locked">
        {children}
      </fieldset>
    </>
  );
}
