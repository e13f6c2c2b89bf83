/**
 * Validation messages for partners: the validator's wording ("Invalid input: expected number, received string") is
 * rewritten as a short sentence about the field ("must be a number"). Messages the routes wrote themselves pass unchanged.
 */
const REWRITES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^Invalid input: expected \w+, received undefined$/, () => 'is required'],
  [/^Invalid input: expected int, received \w+$/, () => 'must be a whole number'],
  [/^Invalid input: expected (\w+), received \w+$/, (type) => `must be ${article(type)} ${type}`],
  [/^Invalid input: expected (".*")$/, (value) => `must be ${value}`],
  [/^Invalid option: expected one of (.+)$/, (options) => `must be one of ${options.split('|').join(', ')}`],
  [/^Too small: expected string to have >=(\d+) characters?$/, (n) => `must be at least ${n} characters long`],
  [/^Too big: expected string to have <=(\d+) characters?$/, (n) => `must be at most ${n} characters long`],
  [/^Too small: expected array to have >=(\d+) items?$/, (n) => `must have at least ${n} items`],
  [/^Too big: expected array to have <=(\d+) items?$/, (n) => `must have at most ${n} items`],
  [/^Too small: expected \w+ to be >=(-?[\d.]+)$/, (n) => `must be at least ${n}`],
  [/^Too big: expected \w+ to be <=(-?[\d.]+)$/, (n) => `must be at most ${n}`],
  [/^Too small: expected \w+ to be >(-?[\d.]+)$/, (n) => `must be greater than ${n}`],
  [/^Too big: expected \w+ to be <(-?[\d.]+)$/, (n) => `must be less than ${n}`],
  [/^Unrecognized keys?: (.+)$/, (keys) => `unknown field${keys.includes(',') ? 's' : ''} ${keys}; remove ${keys.includes(',') ? 'them' : 'it'}`],
  [/^Invalid ISO date$/, () => 'must be a date as YYYY-MM-DD'],
  [/^Invalid ISO datetime$/, () => 'must be an ISO-8601 date-time'],
  [/^Invalid email address$/, () => 'must be an email address'],
  [/^Invalid URL$/, () => 'must be a URL'],
];

export function partnerMessage(message: string): string {
  for (const [pattern, rewrite] of REWRITES) {
    const match = pattern.exec(message);
    if (match) return rewrite(...match.slice(1));
  }
  return message;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
