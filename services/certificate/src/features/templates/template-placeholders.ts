/** The placeholders every template may use; custom fields a template declares add to them. */
export const BUILT_IN_PLACEHOLDERS = ['recipient_name', 'program_title', 'issue_date', 'certificate_number', 'verification_url', 'issuer_name'] as const;

export type PlaceholderValues = Record<string, string>;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The names of every `{{name}}` in a text block, in order. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** The text with each placeholder replaced by its value; the template's rules make sure every name has one. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => values[name] ?? '');
}
