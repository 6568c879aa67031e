// Accessible names as accname 1.2 computes them, with HTML-AAM's rules for native elements:
//   2A  hidden nodes count only inside a traversal that started at a hidden referenced node;
//   2B  aria-labelledby (and Chromium's aria-labeledby spelling), each referenced node's text
//       alternative, joined by spaces, hidden referenced nodes included;
//   2C  an embedded control's value is never read (a deliberate departure: no field's value
//       may reach a label, docs/protocol.md), so it contributes nothing;
//   2D  aria-label (not whitespace-only);
//   2E  the host language's own: <label>s of labelable elements (hidden ones too), a button
//       input's value or Submit/Reset, alt of img/area/image input, legend, figcaption,
//       caption, an svg's <title>;
//   2F  the content, for roles named from content and inside any traversal: text nodes, CSS
//       ::before/::after (their alternative text when given), child elements recursively,
//       block-level children set apart by spaces, aria-owns'd elements last; a tree item,
//       option or menu item never takes its nested groups' text;
//   2I  title, then placeholder.
// Whitespace: runs of ASCII whitespace collapse to one space, the ends trimmed (a no-break
// space is kept, as browsers keep it). Cut at 256 characters.
import { NAME_FROM_CONTENT } from './roles.js';

const MAX_LABEL = 256;
const ASCII_SPACE = /[ \t\n\f\r]+/g;
/** Children whose text never counts: no field's value, no script. */
const SKIP_TEXT = new Set(['script', 'style', 'template', 'textarea', 'select', 'input', 'noscript', 'datalist']);
/** Roots whose name comes from content but not from their nested groups (as Chromium does). */
const ITEM_ROLES = new Set(['treeitem', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio']);
const NESTED_GROUPS = new Set(['group', 'tree', 'treegrid', 'grid', 'listbox', 'menu', 'menubar']);
const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

interface Traversal {
  visited: Set<Element>;
  /** Inside an aria-labelledby traversal (2B does not apply again). */
  labelledBy: boolean;
  /** The traversal started at a hidden referenced node: hidden nodes count. */
  includeHidden: boolean;
  /** The role of the element being named, for 2F's nested-group rule. */
  rootRole: string;
}

/** Collapses ASCII whitespace, trims, and cuts at MAX_LABEL without splitting a surrogate pair. */
export function clean(text: string): string {
  let s = String(text).replace(ASCII_SPACE, ' ').replace(/^ | $/g, '');
  if (s.length > MAX_LABEL) {
    s = s.slice(0, MAX_LABEL);
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1);
  }
  return s;
}

function blank(text: string | null): boolean {
  return text === null || text.replace(ASCII_SPACE, '') === '';
}

/** Not rendered (display:none, visibility hidden, content-visibility hidden) or aria-hidden itself. */
function hiddenSelf(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  if (el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false })) return false;
  // display:contents has no box of its own, yet its children are rendered.
  return getComputedStyle(el).display !== 'contents';
}

/** Hidden from all users: itself or an ancestor (flat tree), as for a referenced node. */
export function isHiddenNode(el: Element): boolean {
  for (let at: Element | null = el; at; at = at.parentElement ?? ((at.parentNode as ShadowRoot | null)?.host ?? null)) {
    if (at.getAttribute('aria-hidden') === 'true') return true;
  }
  return hiddenSelf(el);
}

function byId(el: Element, id: string): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  return root.getElementById ? root.getElementById(id) : null;
}

function idrefs(el: Element, attribute: string): Element[] {
  const value = el.getAttribute(attribute);
  if (!value) return [];
  const out: Element[] = [];
  for (const id of value.split(ASCII_SPACE)) {
    const ref = id ? byId(el, id) : null;
    if (ref) out.push(ref);
  }
  return out;
}

/** The accessible name of `el`, listed with `role`. */
export function accessibleName(el: Element, role: string): string {
  const traversal: Traversal = { visited: new Set(), labelledBy: false, includeHidden: false, rootRole: role };
  return clean(textAlternative(el, traversal, true));
}

function textAlternative(el: Element, t: Traversal, isRoot: boolean): string {
  if (t.visited.has(el)) return '';
  t.visited.add(el);
  // 2A (a listed root is rendered; a referenced root decides includeHidden itself).
  if (!isRoot && !t.includeHidden && hiddenSelf(el)) return '';
  if (!t.labelledBy) {
    const labelledBy = fromLabelledBy(el, t);
    if (labelledBy !== null) return labelledBy;
  }
  // 2C: an embedded control inside another's name contributes no value.
  if (!isRoot && isEmbeddedControl(el)) return '';
  // A slot is no node of the accessibility tree (it renders what is assigned to it): its
  // aria-label names nothing.
  const label = el.localName === 'slot' ? null : el.getAttribute('aria-label');
  if (!blank(label)) return label as string;
  const native = nativeName(el, t);
  if (native !== null) return native;
  if (!isRoot || t.labelledBy || NAME_FROM_CONTENT.has(t.rootRole)) {
    const content = contentText(el, t);
    if (!blank(content)) return content;
  }
  return tooltip(el);
}

function fromLabelledBy(el: Element, t: Traversal): string | null {
  let refs = idrefs(el, 'aria-labelledby');
  if (refs.length === 0 && !el.hasAttribute('aria-labelledby')) refs = idrefs(el, 'aria-labeledby');
  if (refs.length === 0) return null;
  const parts = refs.map((ref) =>
    textAlternative(ref, { visited: t.visited, labelledBy: true, includeHidden: isHiddenNode(ref), rootRole: t.rootRole }, false),
  );
  const text = parts.join(' ');
  return blank(text) ? null : text;
}

function isEmbeddedControl(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    return !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'hidden'].includes(type);
  }
  if (tag === 'select' || tag === 'textarea') return true;
  const role = el.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'listbox' || role === 'slider' || role === 'spinbutton' || role === 'searchbox';
}

/** 2E: the host language's own label, or null when it has none. */
function nativeName(el: Element, t: Traversal): string | null {
  const tag = el.localName;
  if (LABELABLE.has(tag)) {
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length && !(tag === 'input' && (el as HTMLInputElement).type === 'hidden')) {
      const text = [...labels]
        .map((label) => textAlternative(label, { ...t, includeHidden: t.includeHidden || isHiddenNode(label), labelledBy: true }, false))
        .join(' ');
      if (!blank(text)) return text;
    }
  }
  switch (tag) {
    case 'input':
      return inputName(el as HTMLInputElement);
    case 'img':
    case 'area':
      return el.hasAttribute('alt') && !blank(el.getAttribute('alt')) ? (el.getAttribute('alt') as string) : null;
    case 'fieldset':
      return childText(el, 'legend', t);
    case 'figure':
      return childText(el, 'figcaption', t);
    case 'table':
      return childText(el, 'caption', t);
    case 'svg':
      return childText(el, 'title', t);
  }
  return null;
}

function inputName(input: HTMLInputElement): string | null {
  const type = input.type;
  if (type === 'button' || type === 'submit' || type === 'reset') {
    // A button input's value attribute is its visible caption, not data someone typed.
    const caption = input.getAttribute('value');
    if (caption !== null) return blank(caption) ? null : caption;
    return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : null;
  }
  if (type === 'image') {
    const alt = input.getAttribute('alt');
    return blank(alt) ? null : alt;
  }
  return null;
}

function childText(el: Element, tag: string, t: Traversal): string | null {
  for (const child of el.children) {
    if (child.localName === tag) {
      const text = textAlternative(child, { ...t, labelledBy: true }, false);
      return blank(text) ? null : text;
    }
  }
  return null;
}

function tooltip(el: Element): string {
  const title = el.getAttribute('title');
  if (!blank(title)) return title as string;
  const placeholder = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
  return blank(placeholder) ? '' : (placeholder as string);
}

/** The text of a CSS ::before/::after (its alternative text after `/` when given). */
function pseudoText(el: Element, which: '::before' | '::after'): string {
  const content = getComputedStyle(el, which).content;
  if (!content || content === 'none' || content === 'normal') return '';
  const slash = content.lastIndexOf('" / "');
  const part = slash >= 0 ? content.slice(slash + 4) : content;
  const strings = part.match(/"((?:[^"\\]|\\.)*)"/g);
  return strings ? strings.map((s) => s.slice(1, -1).replace(/\\(.)/g, '$1')).join('') : '';
}

function isInline(el: Element): boolean {
  const display = getComputedStyle(el).display;
  return display === 'inline' || display === 'contents';
}

/** The nodes whose text makes `el`'s content: its flat-tree children, then what it aria-owns. */
function contentNodes(el: Element): Node[] {
  let nodes: Node[];
  if (el.shadowRoot) nodes = [...el.shadowRoot.childNodes];
  else if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    nodes = assigned.length ? assigned : [...el.childNodes];
  } else nodes = [...el.childNodes];
  for (const owned of idrefs(el, 'aria-owns')) {
    // An owned element hidden from all users (itself or an ancestor) is not relocated.
    if (!owned.contains(el) && owned.checkVisibility({ visibilityProperty: true }) && owned.getAttribute('aria-hidden') !== 'true') {
      nodes.push(owned);
    }
  }
  return nodes;
}

function contentText(el: Element, t: Traversal): string {
  let out = pseudoText(el, '::before');
  if (out) out += ' ';
  const items = ITEM_ROLES.has(t.rootRole);
  for (const node of contentNodes(el)) {
    if (node.nodeType === Node.TEXT_NODE) {
      out += (node as Text).data;
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const child = node as Element;
    if (SKIP_TEXT.has(child.localName) && !isEmbeddedControl(child)) continue;
    if (items && NESTED_GROUPS.has(child.getAttribute('role') ?? '')) continue;
    if (!t.includeHidden && hiddenSelf(child)) continue;
    const text = textAlternative(child, t, false);
    out += isInline(child) ? text : ` ${text} `;
  }
  const after = pseudoText(el, '::after');
  return after ? `${out} ${after}` : out;
}
