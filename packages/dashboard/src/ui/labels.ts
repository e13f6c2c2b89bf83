/** Words for people in place of the API's enum values (`in_progress` → "In progress", `free` → "Free"). */
const SPECIAL: Record<string, string> = {
  no_drivers_available: 'No drivers available',
  courier_assigned: 'Courier assigned',
  picked_up: 'Picked up',
  in_progress: 'In progress',
  xl: 'XL',
  gateway_a: 'Gateway A',
  gateway_b: 'Gateway B',
  'gateway-a': 'Gateway A',
  'gateway-b': 'Gateway B',
  live: 'Live',
  test: 'Test',
};

export function humanLabel(value: string | null | undefined): string {
  if (!value) return '—';
  const special = SPECIAL[value];
  if (special) return special;
  const words = value.replace(/[_.-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A vehicle as one line: colour, make and model, plate; a placeholder colour ("none") is left out. */
export function vehicleLine(vehicle: { make?: string | null; model?: string | null; color?: string | null; plate?: string | null } | null | undefined): string {
  if (!vehicle) return '';
  const color = vehicle.color && !/^(none|n\/a|-)$/i.test(vehicle.color.trim()) ? vehicle.color : '';
  const body = [color, vehicle.make, vehicle.model].filter(Boolean).join(' ');
  return [body, vehicle.plate].filter(Boolean).join(', ');
}
