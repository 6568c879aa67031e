// The snapshot walk: one pass over the document in document order, through open shadow roots
// and same-origin iframes, finding what is listed (see `listedRole`). A cross-origin iframe's
// document is out of reach: the walk reports it as a frame hole ([the iframe's nodeKey, how
// many elements were listed before it]) and the driver walks that frame with its own agent.
// Elements that are not rendered (display:none, visibility hidden, content-visibility hidden,
// zero-size) are skipped, and whole subtrees under aria-hidden="true" or inert. Closed shadow
// roots are not listed.
//
// The cap: when more elements qualify than `limit`, the listed ones are, first, the focused
// element and its neighbours (NEIGHBOURS either side in document order), then those in the
// viewport, then those within one viewport of it, then the rest from the top; the list stays in
// document order. Names are computed only for what is kept.
import { accessibleName } from './accname.js';
import { isSecure, opsOf } from './element-state.js';
import { composedContains, deepActive, frameDocument } from './geometry.js';
import type { NodeKeys } from './node-keys.js';
import type { FrameHole, PageElement } from './protocol.js';
import { LIVE_REGION, isFocusable, roleOf } from './roles.js';

const SKIP_WALK = new Set(['head', 'script', 'style', 'template', 'noscript']);
/** Listed whenever rendered: the roles a person acts on, and live regions with text. */
const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'treeitem', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'listbox', 'gridcell', 'status', 'alert',
]);
/** Listed inside a grid or tree grid: its rows, as well as its cells (headers when focusable). */
const GRID_PARTS = new Set(['row']);
const NEIGHBOURS = 25;

export interface Walk {
  elements: PageElement[];
  truncated: boolean;
  frames: FrameHole[];
}

interface Candidate {
  el: Element;
  role: string;
  rect: DOMRect;
  /** Known early for live regions (an empty one is not listed). */
  name?: string;
}

/** The role `el` is listed with, or null when it is not listed. */
export function listedRole(el: Element): string | null {
  const role = roleOf(el);
  if (role === null) return null;
  if (WIDGET_ROLES.has(role)) return role;
  if (GRID_PARTS.has(role) && el.closest('[role="grid"],[role="treegrid"]') !== null) return role;
  // Any other element a person can focus: a focusable tabpanel, region, splitter, header...
  return isFocusable(el) ? role : null;
}

function rendered(el: Element): DOMRect | null {
  if (!el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) return null;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 ? rect : null;
}

function pushChildren(stack: Element[], parent: ParentNode): void {
  for (let child = parent.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
}

/** Every listable element in document order, and the cross-origin frames (by candidate count before them). */
function collect(doc: Document, keys: NodeKeys): { candidates: Candidate[]; holes: Array<[Element, number]> } {
  const candidates: Candidate[] = [];
  const holes: Array<[Element, number]> = [];
  const stack: Element[] = [];
  if (doc.documentElement) stack.push(doc.documentElement);
  while (stack.length) {
    const el = stack.pop() as Element;
    const tag = el.localName;
    if (SKIP_WALK.has(tag)) continue;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) continue;
    const role = listedRole(el);
    const rect = role === null ? null : rendered(el);
    if (role !== null && rect !== null) {
      if (LIVE_REGION.has(role)) {
        // An empty live region says nothing yet: leave it out.
        const name = accessibleName(el, role);
        if (name !== '') candidates.push({ el, role, rect, name });
      } else candidates.push({ el, role, rect });
    }
    pushChildren(stack, el);
    if (el.shadowRoot) pushChildren(stack, el.shadowRoot);
    if (tag === 'iframe' || tag === 'frame') {
      const inner = frameDocument(el);
      if (inner) {
        if (inner.documentElement) stack.push(inner.documentElement);
      } else if (rendered(el)) {
        keys.keyFor(el);
        holes.push([el, candidates.length]);
      }
    }
  }
  return { candidates, holes };
}

/** The indices of the candidates kept under the cap, in document order. */
function keep(candidates: Candidate[], limit: number, doc: Document): number[] {
  if (candidates.length <= limit) return candidates.map((_, i) => i);
  const chosen = new Set<number>();
  const add = (i: number): void => {
    if (chosen.size < limit && i >= 0 && i < candidates.length) chosen.add(i);
  };
  const focused = deepActive(doc);
  if (focused && focused !== doc.body && focused !== doc.documentElement) {
    let at = -1;
    candidates.forEach((c, i) => {
      if (composedContains(c.el, focused)) at = i;
    });
    if (at >= 0) for (let d = 0; d <= NEIGHBOURS; d++) [at - d, at + d].forEach(add);
  }
  const win = doc.defaultView as Window;
  const w = win.innerWidth;
  const h = win.innerHeight;
  const within = (r: DOMRect, m: number): boolean => r.bottom > -m * h && r.top < h + m * h && r.right > -m * w && r.left < w + m * w;
  candidates.forEach((c, i) => within(c.rect, 0) && add(i));
  candidates.forEach((c, i) => within(c.rect, 1) && add(i));
  for (let i = 0; i < candidates.length && chosen.size < limit; i++) add(i);
  return [...chosen].sort((a, b) => a - b);
}

export function walk(doc: Document, limit: number, keys: NodeKeys, secureTokens: ReadonlySet<string>): Walk {
  const { candidates, holes } = collect(doc, keys);
  const kept = keep(candidates, limit, doc);
  const elements: PageElement[] = kept.map((i) => {
    const { el, role, name } = candidates[i] as Candidate;
    return [keys.keyFor(el), role, name ?? accessibleName(el, role), opsOf(el, role), isSecure(el, secureTokens) ? 1 : 0];
  });
  // A frame stands after the kept elements that came before it in the document.
  let k = 0;
  const frames: FrameHole[] = holes.map(([frame, before]) => {
    while (k < kept.length && (kept[k] as number) < before) k++;
    return [keys.keyFor(frame), k];
  });
  return { elements, truncated: kept.length < candidates.length, frames };
}
