// Which form fields are secure (credential or payment fields). The driver never reads,
// types into or otherwise acts on a secure field: acting on one is `target_blocked`, and its
// value appears nowhere (no field's value is ever returned by the snapshot script at all).
//
// Rule: a field is secure when
//   1. it is an `<input type="password">` (also after a page toggles it to `text` to "show"
//      the password, as long as its autocomplete still names a credential token), or
//   2. any whitespace-separated token of its `autocomplete` attribute (case-insensitive) is
//      in SECURE_AUTOCOMPLETE_TOKENS below. The tokens are the HTML autofill field names for
//      passwords, one-time codes and card data (HTML Living Standard, "Autofill").
//
// The list is data: the in-page snapshot script receives it as an argument, so this file is
// the single place that decides it.

/** Autocomplete tokens that mark a field as secure. Lower case. */
export const SECURE_AUTOCOMPLETE_TOKENS: readonly string[] = Object.freeze([
  // Credentials.
  'current-password',
  'new-password',
  'one-time-code',
  // Payment cards: the holder's name, number, security code, expiry and type.
  'cc-name',
  'cc-given-name',
  'cc-additional-name',
  'cc-family-name',
  'cc-number',
  'cc-csc',
  'cc-exp',
  'cc-exp-month',
  'cc-exp-year',
  'cc-type',
]);

const SECURE_SET: ReadonlySet<string> = new Set(SECURE_AUTOCOMPLETE_TOKENS);

/**
 * True when an `autocomplete` attribute value names a secure field: any of its
 * whitespace-separated tokens (for example `section-pay billing cc-number`) is in
 * SECURE_AUTOCOMPLETE_TOKENS. Case-insensitive; null, undefined and empty are not secure.
 */
export function isSecureAutocomplete(value: string | null | undefined): boolean {
  if (!value) return false;
  for (const token of value.toLowerCase().split(/\s+/)) {
    if (token && SECURE_SET.has(token)) return true;
  }
  return false;
}

/** True for an input `type` that always makes a field secure. */
export function isSecureInputType(type: string | null | undefined): boolean {
  return typeof type === 'string' && type.trim().toLowerCase() === 'password';
}
