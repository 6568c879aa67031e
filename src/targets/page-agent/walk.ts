// The snapshot walk: one pass over the document in document order, through open shadow roots
// and same-origin iframes, listing elements with a role this agent lists (see roles.ts) and
// live regions that have text. A cross-origin iframe's document is out of reach: the walk
// reports it as a frame hole ([the iframe's nodeKey, how many elements were listed before
// it]) and the driver walks that frame with its own agent. Elements that are not rendered
// (display:none, visibility hidden, content-visibility hidden, zero-size) are skipped, and whole
// subtrees under aria-hidden="true" or inert. Closed shadow roots are not listed.
import { isSecure, isVisible, opsOf } from './element-state.js';
import { frameDocument } from './geometry.js';
import { nameOf } from './names.js';
import type { NodeKeys } from './node-keys.js';
import type { FrameHole, PageElement } from './protocol.js';
import { LIVE_REGION, roleOf } from './roles.js';

const SKIP_WALK = new Set(['head', 'script', 'style', 'template', 'noscript']);

export interface Walk {
  elements: PageElement[];
  truncated: boolean;
  frames: FrameHole[];
}

function pushChildren(stack: Element[], parent: ParentNode): void {
  for (let child = parent.lastElementChild; child; child = child.previousElementSibling) stack.push(child);
}

export function walk(doc: Document, limit: number, keys: NodeKeys, secureTokens: ReadonlySet<string>): Walk {
  const out: PageElement[] = [];
  const holes: FrameHole[] = [];
  let truncated = false;
  const stack: Element[] = [];
  if (doc.documentElement) stack.push(doc.documentElement);
  while (stack.length) {
    const el = stack.pop() as Element;
    const tag = el.localName;
    if (SKIP_WALK.has(tag)) continue;
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) continue;
    const role = roleOf(el);
    if (role !== null && isVisible(el)) {
      const name = nameOf(el, role);
      // An empty live region says nothing yet: leave it out.
      if (!(LIVE_REGION.has(role) && name === '')) {
        if (out.length >= limit) {
          truncated = true;
          break;
        }
        out.push([keys.keyFor(el), role, name, opsOf(el, role), isSecure(el, secureTokens) ? 1 : 0]);
      }
    }
    pushChildren(stack, el);
    if (el.shadowRoot) pushChildren(stack, el.shadowRoot);
    if (tag === 'iframe' || tag === 'frame') {
      const inner = frameDocument(el);
      if (inner) {
        if (inner.documentElement) stack.push(inner.documentElement);
      } else if (isVisible(el)) holes.push([keys.keyFor(el), out.length]);
    }
  }
  return { elements: out, truncated, frames: holes };
}
