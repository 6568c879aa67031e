// What can be done with a listed element: visible, secure, editable, and its ops mask
// (1 click, 2 type, 4 press): none when disabled (native :disabled or aria-disabled="true" on it
// or an ancestor); click otherwise; type for an editable text entry (textbox, searchbox,
// combobox, spinbutton on an input, textarea or contenteditable, not read-only); press when it
// can take focus. The agent never reads any field's value.
import { OP_CLICK, OP_PRESS, OP_TYPE } from './protocol.js';
import { LIVE_REGION, TEXT_ENTRY, inputRole } from './roles.js';

export function isVisible(el: Element): boolean {
  if (el.checkVisibility && !el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/** Under aria-hidden="true" or inert, itself or an ancestor. */
export function isHiddenSubtree(el: Element): boolean {
  return el.closest('[aria-hidden="true"],[inert]') !== null;
}

/** A secure field: input type=password, or an autocomplete token from the secure list. */
export function isSecure(el: Element, secureTokens: ReadonlySet<string>): boolean {
  if (el.localName === 'input' && (el as HTMLInputElement).type === 'password') return true;
  const autocomplete = el.getAttribute('autocomplete');
  if (!autocomplete) return false;
  return autocomplete
    .toLowerCase()
    .split(/\s+/)
    .some((token) => secureTokens.has(token));
}

function isEditable(el: Element): boolean {
  const readOnlyAria = el.getAttribute('aria-readonly') === 'true';
  switch (el.localName) {
    case 'input': {
      const input = el as HTMLInputElement;
      return !input.readOnly && !readOnlyAria && inputRole(input) !== 'button';
    }
    case 'textarea':
      return !(el as HTMLTextAreaElement).readOnly && !readOnlyAria;
    default:
      return (el as HTMLElement).isContentEditable && !readOnlyAria;
  }
}

export function opsOf(el: Element, role: string): number {
  if (LIVE_REGION.has(role)) return 0;
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null) return 0;
  let ops = OP_CLICK;
  if (TEXT_ENTRY.has(role) && isEditable(el)) ops |= OP_TYPE;
  const html = el as HTMLElement;
  if (html.tabIndex >= 0 || el.hasAttribute('tabindex') || html.isContentEditable) ops |= OP_PRESS;
  return ops;
}
