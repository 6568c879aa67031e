// Roles as the browser computes them: the first token of `role` that is a role ARIA 1.2
// defines (`none`/`presentation` ignored on a focusable element, as the conflict rule says),
// else the implicit role HTML-AAM gives the element. Null for generic and presentational
// elements. Which roles are listed is the walk's business (walk.ts).

const ARIA_ROLES = new Set([
  'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button', 'caption', 'cell', 'checkbox',
  'code', 'columnheader', 'combobox', 'complementary', 'contentinfo', 'definition', 'deletion', 'dialog', 'directory',
  'document', 'emphasis', 'feed', 'figure', 'form', 'generic', 'grid', 'gridcell', 'group', 'heading', 'img',
  'insertion', 'link', 'list', 'listbox', 'listitem', 'log', 'main', 'mark', 'marquee', 'math', 'menu', 'menubar',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'meter', 'navigation', 'none', 'note', 'option', 'paragraph',
  'presentation', 'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup', 'rowheader', 'scrollbar',
  'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'strong', 'subscript', 'superscript',
  'switch', 'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer', 'toolbar', 'tooltip', 'tree',
  'treegrid', 'treeitem',
]);

/** Roles whose name comes from their content (accname 1.2, ARIA 1.2), plus live regions, whose text is what they say. */
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'status', 'alert',
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

/** The table an element of a table belongs to, and whether it is a grid or tree grid. */
function inGrid(el: Element): boolean {
  const table = el.closest('table');
  const role = table?.getAttribute('role');
  return role === 'grid' || role === 'treegrid';
}

function cellRole(el: Element): string {
  if (el.localName === 'td') return inGrid(el) ? 'gridcell' : 'cell';
  const scope = el.getAttribute('scope');
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  // A header cell with data cells beside it in its row heads that row.
  const row = el.parentElement;
  const rowHead = row !== null && [...row.children].some((cell) => cell.localName === 'td') && el.closest('thead') === null;
  return rowHead ? 'rowheader' : 'columnheader';
}

function hasHeadingOrNamedSection(el: Element): boolean {
  return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');
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
    case 'option':
      return 'option';
    case 'summary':
      // Only a details element's first summary is its disclosure button.
      return el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el ? 'button' : null;
    case 'td':
    case 'th':
      return cellRole(el);
    case 'tr':
      return 'row';
    case 'table':
      return 'table';
    case 'img':
      return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? null : 'img';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'li':
      return 'listitem';
    case 'ul':
    case 'ol':
      return 'list';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'article':
      return 'article';
    case 'aside':
      return 'complementary';
    case 'dialog':
      return 'dialog';
    case 'fieldset':
    case 'details':
      return 'group';
    case 'hr':
      return 'separator';
    case 'progress':
      return 'progressbar';
    case 'meter':
      return 'meter';
    case 'section':
    case 'form':
      return hasHeadingOrNamedSection(el) ? (el.localName === 'form' ? 'form' : 'region') : null;
  }
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.toLowerCase() !== 'false') {
    // Only the editing host is a textbox, not every element inside it.
    const parent = el.parentElement as HTMLElement | null;
    if (!parent?.isContentEditable) return 'textbox';
  }
  return null;
}

/** Natively focusable, or made focusable by a tabindex attribute. */
export function isFocusable(el: Element): boolean {
  if (el.hasAttribute('tabindex')) return true;
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href');
    case 'button':
    case 'input':
    case 'select':
    case 'textarea':
      return true;
    case 'summary':
      return implicitRole(el) === 'button';
  }
  return (el as HTMLElement).isContentEditable === true;
}

/** The computed role, or null for generic and presentational elements. */
export function roleOf(el: Element): string | null {
  const explicit = el.getAttribute('role');
  if (explicit) {
    for (const token of explicit.toLowerCase().split(/[ \t\n\f\r]+/)) {
      if (!ARIA_ROLES.has(token)) continue;
      // A focusable element is never presentational (ARIA's conflict resolution).
      if (token === 'none' || token === 'presentation') {
        if (isFocusable(el)) continue;
        return null;
      }
      return token === 'generic' ? null : token;
    }
  }
  return implicitRole(el);
}
