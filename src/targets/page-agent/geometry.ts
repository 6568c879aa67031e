// Where to click: an element's centre in the top frame's viewport, scrolled into view when
// needed, hit-tested through shadow roots, and mapped up through same-origin iframes. A
// cross-origin boundary (frameElement is null there) is crossed by the driver, which goes on
// in the parent's agent with framePoint.
import { isHiddenSubtree, isVisible } from './element-state.js';
import { accessibleName, clean } from './accname.js';
import type { FramePoint } from './protocol.js';
import { roleOf } from './roles.js';

/** Where to click: the point, or why there is none (and what covers it); whether it scrolled. */
export interface PointAnswer {
  status: 'ok' | 'offscreen' | 'covered';
  x?: number;
  y?: number;
  coveredBy?: string;
  scrolled?: boolean;
}

export function frameDocument(el: Element): Document | null {
  try {
    return (el as HTMLIFrameElement).contentDocument;
  } catch {
    return null;
  }
}

export function composedContains(ancestor: Node, node: Node | null): boolean {
  while (node) {
    if (node === ancestor) return true;
    node = node.parentNode || (node as ShadowRoot).host || null;
  }
  return false;
}

function deepHit(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** The focused element, through shadow roots and same-origin frames. */
export function deepActive(doc: Document): Element | null {
  let active = doc.activeElement;
  for (;;) {
    if (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    else if (active && (active.localName === 'iframe' || active.localName === 'frame') && frameDocument(active)?.activeElement) {
      active = (frameDocument(active) as Document).activeElement;
    } else return active;
  }
}

function hits(el: Element, hit: Element | null): boolean {
  if (!hit) return false;
  if (composedContains(el, hit)) return true;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const label of labels) if (composedContains(label, hit)) return true;
  return false;
}

/** A short description of what is at a point, for a `covered` refusal. */
function describe(node: Element | null): string {
  if (!node) return 'nothing';
  let s = '<' + node.localName;
  if (node.id) s += ' id="' + clean(node.id).slice(0, 40) + '"';
  const cls = node.getAttribute('class');
  if (cls && clean(cls)) s += ' class="' + clean(cls).slice(0, 60) + '"';
  s += '>';
  const role = roleOf(node);
  if (role) s += ' (' + role + ' "' + accessibleName(node, role).slice(0, 60) + '")';
  return s;
}

function viewport(doc: Document): { w: number; h: number } {
  const win = doc.defaultView as Window;
  const de = doc.documentElement;
  return { w: Math.min(win.innerWidth, de.clientWidth || win.innerWidth), h: Math.min(win.innerHeight, de.clientHeight || win.innerHeight) };
}

/** The point to click on `el` (scrolling it into view first when needed). */
export function pointOf(el: Element): PointAnswer {
  const res: Partial<PointAnswer> = {};
  const doc = el.ownerDocument;
  const vp = viewport(doc);
  let r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > vp.h || r.right > vp.w) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    res.scrolled = true;
    r = el.getBoundingClientRect();
  }
  const left = Math.max(r.left, 0);
  const top = Math.max(r.top, 0);
  const right = Math.min(r.right, vp.w);
  const bottom = Math.min(r.bottom, vp.h);
  if (right <= left || bottom <= top) {
    return { ...res, status: 'offscreen' };
  }
  const x = (left + right) / 2;
  const y = (top + bottom) / 2;
  const hit = deepHit(doc, x, y);
  if (!hits(el, hit)) return { ...res, status: hit ? 'covered' : 'offscreen', coveredBy: describe(hit) };
  return { ...res, ...lift(doc.defaultView?.frameElement ?? null, x, y) };
}

/** Where a frame's content box starts in its parent's viewport: its box plus border and padding. */
function contentOrigin(frame: Element): { x: number; y: number } {
  const box = frame.getBoundingClientRect();
  const style = (frame.ownerDocument.defaultView as Window).getComputedStyle(frame);
  return {
    x: box.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0),
    y: box.top + frame.clientTop + (parseFloat(style.paddingTop) || 0),
  };
}

/**
 * Maps (x, y) of the document inside `frame` up through same-origin parents, checking at
 * each level that the frame itself is what is at that point.
 */
function lift(frame: Element | null, x: number, y: number): PointAnswer {
  while (frame) {
    const origin = contentOrigin(frame);
    x += origin.x;
    y += origin.y;
    const outer = deepHit(frame.ownerDocument, x, y);
    if (outer !== frame) return { status: outer ? 'covered' : 'offscreen', coveredBy: describe(outer) };
    frame = frame.ownerDocument.defaultView?.frameElement ?? null;
  }
  return { status: 'ok', x, y };
}

/**
 * Maps (x, y) of a cross-origin child frame's viewport (the iframe `frame` of this document)
 * to this world's top viewport, scrolling the iframe into view when the point lies outside
 * this document's viewport.
 */
export function framePoint(frame: Element | null, x: number, y: number): FramePoint {
  if (!frame) return { status: 'gone' };
  if (!isVisible(frame) || isHiddenSubtree(frame)) return { status: 'hidden' };
  const doc = frame.ownerDocument;
  const vp = viewport(doc);
  let origin = contentOrigin(frame);
  const outside = (): boolean => origin.x + x < 0 || origin.y + y < 0 || origin.x + x >= vp.w || origin.y + y >= vp.h;
  let scrolled: { scrolled?: true } = {};
  if (outside()) {
    frame.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    scrolled = { scrolled: true };
    origin = contentOrigin(frame);
    if (outside()) return { status: 'offscreen', ...scrolled };
  }
  const hit = deepHit(doc, origin.x + x, origin.y + y);
  if (hit !== frame) return { status: hit ? 'covered' : 'offscreen', coveredBy: describe(hit), ...scrolled };
  return { ...lift(doc.defaultView?.frameElement ?? null, origin.x + x, origin.y + y), ...scrolled };
}
