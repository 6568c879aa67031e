// The page agent: the script the CDP driver installs in an isolated world of each document it
// drives. Page scripts cannot see an isolated world's globals, and the page's own prototype
// patches do not reach it. It walks the DOM once per snapshot and answers act's
// resolve-and-check in one call. scripts/gen-page-agent.mjs bundles this file into the
// function text the driver injects (page-agent.generated.ts).
import { CaptureWatcher, capture, isSafe } from './capture.js';
import { isHiddenSubtree, isSecure, isVisible, opsOf } from './element-state.js';
import { composedContains, deepActive, framePoint, pointOf } from './geometry.js';
import { accessibleName } from './accname.js';
import { NodeKeys } from './node-keys.js';
import { AGENT_GLOBAL, OP_CLICK, OP_PRESS, OP_TYPE, type PageAgent, type PagePrepare } from './protocol.js';
import { listedRole, walk } from './walk.js';

function prepare(
  keys: NodeKeys,
  secure: ReadonlySet<string>,
  [allowed, key, expectRole, expectLabel, op, framed]: Parameters<PageAgent['prepare']>,
): PagePrepare {
  const res: PagePrepare = { capture: capture(document), status: 'unsafe' };
  // framed: a cross-origin child frame, which answers for its own origin only (the page's
  // declaration is the top document's business).
  if (framed ? !allowed.includes(res.capture.origin) : !isSafe(res.capture, allowed)) return res;
  const el = keys.lookup(key);
  if (!el) return { ...res, status: 'gone' };
  const role = listedRole(el);
  const label = role ? accessibleName(el, role) : '';
  res.role = role;
  res.label = label;
  if (role !== expectRole || label !== expectLabel) return { ...res, status: 'changed' };
  if (isSecure(el, secure)) return { ...res, status: 'secure' };
  if (!isVisible(el) || isHiddenSubtree(el)) return { ...res, status: 'hidden' };
  const ops = opsOf(el, role);
  res.ops = ops;
  if (ops === 0) return { ...res, status: 'disabled' };
  const need = op === 'click' ? OP_CLICK : op === 'type' ? OP_TYPE : OP_PRESS;
  if ((ops & need) === 0) return { ...res, status: 'op' };
  if (op === 'press') {
    (el as HTMLElement).focus();
    // In a child frame the page's focus must have followed, or the key would go elsewhere.
    const focused = composedContains(el, deepActive(document)) && (!framed || document.hasFocus());
    return { ...res, status: focused ? 'ok' : 'unfocusable' };
  }
  return { ...res, ...pointOf(el) };
}

function caretToEnd(el: Element | null, framed: boolean): boolean {
  if (!el || !composedContains(el, deepActive(document))) return false;
  // A frame keeps its activeElement when the page's focus is elsewhere: ask for the focus.
  if (framed && !document.hasFocus()) return false;
  if (el.localName === 'input' || el.localName === 'textarea') {
    // Offsets past the end are clamped to it: no need to read the value's length.
    try {
      (el as HTMLInputElement).setSelectionRange(1e9, 1e9);
    } catch {
      // Types without a selection (email, number).
    }
  } else if ((el as HTMLElement).isContentEditable) {
    const selection = el.ownerDocument.getSelection();
    if (selection) {
      selection.selectAllChildren(el);
      selection.collapseToEnd();
    }
  }
  return true;
}

/** Resolves once the document has rendered twice (or after 200 ms). */
function settle(): Promise<boolean> {
  // After a scroll, the browser routes input to an out-of-process frame by where it was last
  // drawn, not where it is now.
  return new Promise((resolve) => {
    const done = (): void => resolve(true);
    requestAnimationFrame(() => requestAnimationFrame(done));
    setTimeout(done, 200);
  });
}

/**
 * Installs the agent in this world and returns its world id. Installing twice in the same
 * document keeps the first install (and its node keys).
 */
export function install(secureTokens: string[]): string {
  const global = globalThis as unknown as Record<string, PageAgent | undefined>;
  const installed = global[AGENT_GLOBAL];
  if (installed) return installed.worldId;
  const secure = new Set(secureTokens);
  const keys = new NodeKeys();
  const watcher = new CaptureWatcher(keys.worldId);
  const agent: PageAgent = {
    worldId: keys.worldId,
    capture: () => capture(document),
    snapshot(allowed, limit, framed) {
      const c = capture(document);
      if (framed ? !allowed.includes(c.origin) : !isSafe(c, allowed)) return { capture: c, elements: null, truncated: false, frames: [] };
      const result = walk(document, limit, keys, secure);
      if (keys.size > 2 * result.elements.length + 256) keys.prune();
      return { capture: c, elements: result.elements, truncated: result.truncated, frames: result.frames };
    },
    element: (key) => keys.lookup(key),
    settle,
    framePoint: (key, x, y) => framePoint(keys.lookup(key), x, y),
    prepare: (...args) => prepare(keys, secure, args),
    caretToEnd: (key, framed) => caretToEnd(keys.lookup(key), framed),
    watchCapture: () => watcher.watch(document),
  };
  global[AGENT_GLOBAL] = agent;
  return agent.worldId;
}
