/** A time as the dashboard shows it: relative ("5 minutes ago"), the absolute time in the viewer's zone as its title. */
import { formatDateTime } from './format';

export function Time({ value, empty = '—' }: { value: string | null | undefined; empty?: string }) {
  const time = formatDateTime(value);
  if (!time) return <>{empty}</>;
  return (
    <time dateTime={time.iso} title={time.absolute}>
      {time.relative}
    </time>
  );
}
