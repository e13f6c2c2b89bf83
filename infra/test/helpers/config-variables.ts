/** The variables a config schema reads: the keys of the zod object inside its refinements and transforms. */
export function variablesOf(schema: unknown): string[] {
  let current = schema as { shape?: Record<string, unknown>; in?: unknown };
  while (!current.shape) current = current.in as typeof current;
  return Object.keys(current.shape);
}
