/** The top bar's switch between live and test data, and the banner shown on every page while test mode is on. */
import { useId } from 'react';
import { useDataMode } from './useDataMode';

export function ModeSwitch() {
  const id = useId();
  const { mode, setMode } = useDataMode();
  return (
    <span className="mode-switch">
      <input id={id} type="checkbox" role="switch" name="test-mode" data-testid="mode-switch" checked={mode === 'test'}
        onChange={(event) => setMode(event.target.checked ? 'test' : 'live')} />
      <label htmlFor={id}>Test mode</label>
    </span>
  );
}

export function TestModeBanner() {
  const { mode } = useDataMode();
  if (mode !== 'test') return null;
  return (
    <div className="test-banner" role="status" data-testid="test-mode-banner">
      Test mode: certificates, certificate API keys, rides, deliveries, webhook endpoints, messages and events shown here are test data (made with test keys), not live.
    </div>
  );
}
