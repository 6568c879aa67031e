// The role of an element: its explicit role (the first token of `role` this agent lists) or
// the implicit role HTML gives it. Only roles the snapshot lists are returned; null otherwise.

export const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'treeitem', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'listbox', 'status', 'alert',
]);
export const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'treeitem', 'status', 'alert',
]);
// Live regions: where an app tells what just happened ("Saved", "Hello, Ada!"). Listed so the
// agent can see the outcome of its acts; they offer no ops.
export const LIVE_REGION = new Set(['status', 'alert']);
export const TEXT_ENTRY = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

export function inputRole(input: HTMLInputElement): string | null {
  switch (input.type) {
    case 'hidden':
      return null;
    case 'checkbox':
      return 'checkbox';
    case 'radio':
      return 'radio';
    case 'button':
    case 'submit':
    case 'reset':
    case 'image':
    case 'file':
    case 'color':
      return 'button';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'search':
      return input.hasAttribute('list') ? 'combobox' : 'searchbox';
    default:
      return input.hasAttribute('list') ? 'combobox' : 'textbox';
  }
}

function implicitRole(el: Element): string | null {
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : null;
    case 'button':
      return 'button';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'textarea':
      return 'textbox';
    case 'output':
      return 'status';
    case 'select': {
      const select = el as HTMLSelectElement;
      return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
    }
    case 'summary':
      return el.parentElement?.localName === 'details' ? 'button' : null;
  }
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.toLowerCase() !== 'false') {
    // Only the editing host is a textbox, not every element inside it.
    const parent = el.parentElement as HTMLElement | null;
    if (!parent?.isContentEditable) return 'textbox';
  }
  return null;
}

export function roleOf(el: Element): string | null {
  const explicit = el.getAttribute('role');
  if (explicit) {
    for (const token of explicit.toLowerCase().split(/\s+/)) if (WIDGET_ROLES.has(token)) return token;
  }
  return implicitRole(el);
}
