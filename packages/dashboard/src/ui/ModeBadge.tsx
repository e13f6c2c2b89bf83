/** "Live" or "Test": which data a key (or anything else with a mode) works on. */
export function ModeBadge({ mode }: { mode: 'live' | 'test' }) {
  return (
    <span className={`badge badge-${mode}`} data-testid="mode-badge">
      {mode === 'test' ? 'Test' : 'Live'}
    </span>
  );
}
