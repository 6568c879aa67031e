// Accessible names, first non-empty of: aria-labelledby (the referenced elements' aria-label or
// text), aria-label, associated <label>s (for= and wrapping), a button input's caption (its
// value attribute, or Submit/Reset), an image input's alt, the text content for roles named
// from content, title, placeholder. Whitespace collapsed, trimmed, cut at 256 characters.
// Text inside textarea, select, input, script and style never counts, so no field's value
// ends up in a label.
import { NAME_FROM_CONTENT } from './roles.js';

const MAX_LABEL = 256;
const SKIP_TEXT = new Set(['script', 'style', 'template', 'textarea', 'select', 'input', 'noscript', 'option']);
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'label', 'mark', 'q',
  's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var',
]);

/** Collapses whitespace, trims, and cuts at MAX_LABEL without splitting a surrogate pair. */
export function clean(text: string): string {
  let s = String(text).replace(/\s+/g, ' ').trim();
  if (s.length > MAX_LABEL) {
    s = s.slice(0, MAX_LABEL);
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1);
  }
  return s;
}

function partText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const el = node as Element;
  if (el.getAttribute('aria-hidden') === 'true') return '';
  const sep = INLINE.has(el.localName) ? '' : ' ';
  const label = el.getAttribute('aria-label');
  if (label) return sep + label + sep;
  if (el.localName === 'img') return sep + (el.getAttribute('alt') || '') + sep;
  return sep + textOf(el) + sep;
}

function childrenText(parent: ParentNode): string {
  let out = '';
  for (let child = parent.firstChild; child; child = child.nextSibling) out += partText(child);
  return out;
}

/** The rendered text: a shadow host's shadow tree (slots filled with what is assigned to them). */
export function textOf(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node as Text).data;
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const el = node as Element;
  if (SKIP_TEXT.has(el.localName)) return '';
  if (el.shadowRoot) return childrenText(el.shadowRoot);
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    if (assigned.length) {
      let out = '';
      for (const part of assigned) out += partText(part);
      return out;
    }
  }
  if (el.firstElementChild === null) return el.textContent || '';
  return childrenText(el);
}

function labelledByName(el: Element): string {
  const ids = el.getAttribute('aria-labelledby');
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  let out = '';
  for (const id of ids.trim().split(/\s+/)) {
    const ref = root.getElementById ? root.getElementById(id) : null;
    if (ref) out += ' ' + (ref.getAttribute('aria-label') || textOf(ref));
  }
  return clean(out);
}

function labelsName(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || !labels.length) return '';
  let text = '';
  for (const label of labels) text += ' ' + textOf(label);
  return clean(text);
}

/** The accessible name of `el`, listed with `role`. */
export function nameOf(el: Element, role: string): string {
  const labelledBy = labelledByName(el);
  if (labelledBy) return labelledBy;
  let v = el.getAttribute('aria-label');
  if (v) {
    v = clean(v);
    if (v) return v;
  }
  const type = el.localName === 'input' ? (el as HTMLInputElement).type : '';
  if (type !== 'hidden') {
    const labelled = labelsName(el);
    if (labelled) return labelled;
  }
  if (type === 'button' || type === 'submit' || type === 'reset') {
    // A button input's value attribute is its visible caption, not data someone typed.
    const caption = el.getAttribute('value');
    if (caption !== null) {
      const cleaned = clean(caption);
      if (cleaned) return cleaned;
    } else if (type !== 'button') return type === 'submit' ? 'Submit' : 'Reset';
  }
  if (type === 'image') {
    v = clean(el.getAttribute('alt') || '');
    if (v) return v;
  }
  if (NAME_FROM_CONTENT.has(role)) {
    v = clean(textOf(el));
    if (v) return v;
  }
  for (const fallback of [el.getAttribute('title'), el.getAttribute('placeholder') || el.getAttribute('aria-placeholder')]) {
    const cleaned = fallback ? clean(fallback) : '';
    if (cleaned) return cleaned;
  }
  return '';
}
