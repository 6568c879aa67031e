// A small focus trap for the consent dialog: Tab and Shift+Tab cycle through the dialog and the
// kill controls (marked `data-stays-reachable`), which must stay operable while it is open.

/** Marks an element that stays operable, and inside the focus trap, while consent is asked. */
export const STAYS_REACHABLE = 'data-stays-reachable';

const TABBABLE = 'button, [href], input, select, textarea, [tabindex]';

/**
 * Where Tab (or Shift+Tab when `backwards`) goes from `current` in a list of `count` stops:
 * the next or previous one, wrapping at both ends; from outside the list (-1) to the first, or
 * the last going backwards. Returns -1 when there is nothing to focus.
 */
export function nextFocusIndex(count: number, current: number, backwards: boolean): number {
  if (count <= 0) return -1;
  if (current < 0 || current >= count) return backwards ? count - 1 : 0;
  return backwards ? (current - 1 + count) % count : (current + 1) % count;
}

function isTabbable(element: HTMLElement): boolean {
  if (element.matches(':disabled') || element.tabIndex < 0 || element.closest('[inert]')) return false;
  // Hidden elements (display: none, visibility: hidden) have no client rects.
  return element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
}

/** The tabbable elements of `scopes`, in document order. */
export function tabbableIn(scopes: readonly Element[]): HTMLElement[] {
  const all = scopes.flatMap((scope) => [...scope.querySelectorAll<HTMLElement>(TABBABLE)].filter(isTabbable));
  return [...new Set(all)].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/** The dialog and every element marked as staying reachable. */
export function trapScopes(dialog: Element): Element[] {
  return [dialog, ...document.querySelectorAll(`[${STAYS_REACHABLE}]`)];
}

/** Whether `element` is inside the dialog or something that stays reachable. */
export function insideTrap(dialog: Element, element: Element | null): boolean {
  return element !== null && trapScopes(dialog).some((scope) => scope.contains(element));
}
