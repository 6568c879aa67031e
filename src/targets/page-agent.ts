// The script the CDP driver installs in an isolated world of the target's main frame. Page
// scripts cannot see an isolated world's globals, and the page's own prototype patches do not
// reach it. It walks the DOM once per snapshot and answers act's resolve-and-check in one call.
//
// It is kept as source text because it runs in the page, not in Node (the project's
// TypeScript has no DOM types, and a transpiled function's text may carry helpers that do not
// exist in the page). It is plain ES2020, exercised by the driver's tests in real Chromium.
//
// What it lists: elements whose role is a widget role, explicit (`role` attribute, first
// known token) or implicit (a[href], area[href] → link; button, input button/submit/reset/
// image/file/color, details>summary → button; input checkbox → checkbox, radio → radio,
// range → slider, number → spinbutton, search → searchbox, other text-like inputs and
// textarea → textbox, with `list` → combobox; select → combobox, or listbox when multiple or
// sized; a contenteditable editing host → textbox), and live regions (role status or alert,
// or <output> → status) that have text, with no ops, so the agent can read an act's outcome.
// It walks open shadow roots and same-origin iframes. A cross-origin iframe's document is out
// of its reach: the walk reports such an iframe as a frame hole ([the iframe's nodeKey, how
// many elements were listed before it]) and the driver walks that frame with its own agent
// and splices its elements in at that point. Closed shadow roots are not listed.
// It skips elements that are not rendered (display:none, visibility hidden, content-visibility
// hidden, zero-size) and whole subtrees under aria-hidden="true" or inert.
//
// Accessible name, first non-empty of: aria-labelledby (the referenced elements' aria-label or
// text), aria-label, associated <label>s (for= and wrapping), a button input's caption (its
// value attribute, or Submit/Reset), an image input's alt, the text content for roles named
// from content (button, link, checkbox, radio, switch, tab, menuitem*, option, treeitem),
// title, placeholder. Whitespace collapsed, trimmed, cut at 256 characters. Text inside
// textarea, select, input, script and style never counts, so no field's value ends up in a label.
//
// Ops (bit mask: 1 click, 2 type, 4 press): none when disabled (native :disabled or
// aria-disabled="true" on it or an ancestor); click otherwise; type for an editable text
// entry (textbox, searchbox, combobox, spinbutton on an input, textarea or contenteditable,
// not read-only); press when it can take focus.
//
// Secure: input type=password, or an autocomplete token from the secure list it receives.
// The script never reads any field's value.
//
// nodeKey: `<world id>.<counter>`, from a WeakMap element → counter, so it is stable while the
// node lives in this document and never matches a node of another document.

/** Bits of the ops mask the page returns. */
export const OP_CLICK = 1;
export const OP_TYPE = 2;
export const OP_PRESS = 4;

/** The global under which the installed agent lives in the isolated world. */
export const AGENT_GLOBAL = '__cutrightAgent';

/** What the page reports for the capture check. */
export interface PageCapture {
  origin: string;
  declared: string[];
}

/** One listed element: [nodeKey, role, label, ops mask, secure (1/0)]. */
export type PageElement = [string, string, string, number, number];

/** A cross-origin iframe the walk could not enter: [its nodeKey, elements listed before it]. */
export type FrameHole = [string, number];

export interface PageSnapshot {
  capture: PageCapture;
  /** Null when the page is not safe (nothing walked). */
  elements: PageElement[] | null;
  truncated: boolean;
  /** Cross-origin iframes met before the walk stopped, in document order. */
  frames: FrameHole[];
}

/** The point, in the parent's top-frame viewport, that a point of a child frame maps to. */
export interface FramePoint {
  status: 'ok' | 'gone' | 'hidden' | 'offscreen' | 'covered';
  x?: number;
  y?: number;
  coveredBy?: string;
  scrolled?: boolean;
}

export type PrepareStatus =
  | 'unsafe'
  | 'gone'
  | 'changed'
  | 'secure'
  | 'hidden'
  | 'disabled'
  | 'op'
  | 'unfocusable'
  | 'offscreen'
  | 'covered'
  | 'ok';

export interface PagePrepare {
  capture: PageCapture;
  status: PrepareStatus;
  role?: string | null;
  label?: string;
  ops?: number;
  /** Viewport point (CSS pixels of the top frame) to click, for click and type. */
  x?: number;
  y?: number;
  /** The element was scrolled into view to get that point. */
  scrolled?: boolean;
  /** What covers the element, for `covered`. */
  coveredBy?: string;
}

/**
 * A function declaration taking the secure autocomplete tokens and returning the world id.
 * Installing twice in the same document keeps the first install (and its node keys).
 */
export const PAGE_AGENT_SOURCE = String.raw`function installCutrightAgent(secureTokens) {
  'use strict';
  var G = globalThis;
  if (G.__cutrightAgent) return G.__cutrightAgent.worldId;

  var SECURE = new Set(secureTokens);
  var WIDGET_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'textbox', 'searchbox', 'combobox',
    'slider', 'spinbutton', 'listbox', 'status', 'alert']);
  var NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'status', 'alert']);
  // Live regions: where an app tells what just happened ("Saved", "Hello, Ada!"). Listed so the
  // agent can see the outcome of its acts; they offer no ops.
  var LIVE_REGION = new Set(['status', 'alert']);
  var TEXT_ENTRY = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
  var SKIP_TEXT = new Set(['script', 'style', 'template', 'textarea', 'select', 'input', 'noscript', 'option']);
  var INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i',
    'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);
  var SKIP_WALK = new Set(['head', 'script', 'style', 'template', 'noscript']);
  var MAX_LABEL = 256;
  var OP_CLICK = 1, OP_TYPE = 2, OP_PRESS = 4;

  var rnd = new Uint32Array(2);
  crypto.getRandomValues(rnd);
  var worldId = rnd[0].toString(36) + rnd[1].toString(36);
  var ids = new WeakMap();
  var byId = new Map();
  var nextId = 1;

  function keyFor(el) {
    var id = ids.get(el);
    if (id === undefined) { id = nextId++; ids.set(el, id); }
    if (!byId.has(id)) byId.set(id, new WeakRef(el));
    return worldId + '.' + id;
  }
  function lookup(key) {
    if (typeof key !== 'string') return null;
    var dot = key.indexOf('.');
    if (dot < 0 || key.slice(0, dot) !== worldId) return null;
    var ref = byId.get(Number(key.slice(dot + 1)));
    var el = ref ? ref.deref() : undefined;
    return el && el.isConnected ? el : null;
  }
  function prune() {
    byId.forEach(function (ref, id) {
      var el = ref.deref();
      if (!el || !el.isConnected) byId.delete(id);
    });
  }

  function clean(s) {
    s = String(s).replace(/\s+/g, ' ').trim();
    if (s.length > MAX_LABEL) {
      s = s.slice(0, MAX_LABEL);
      var c = s.charCodeAt(s.length - 1);
      if (c >= 0xd800 && c <= 0xdbff) s = s.slice(0, -1);
    }
    return s;
  }

  function inputRole(el) {
    var type = el.type;
    switch (type) {
      case 'hidden': return null;
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'button': case 'submit': case 'reset': case 'image': case 'file': case 'color': return 'button';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
      default: return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }
  function implicitRole(el) {
    switch (el.localName) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'button': return 'button';
      case 'input': return inputRole(el);
      case 'textarea': return 'textbox';
      case 'output': return 'status';
      case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'summary':
        return el.parentElement && el.parentElement.localName === 'details' ? 'button' : null;
    }
    var ce = el.getAttribute('contenteditable');
    if (ce !== null && ce.toLowerCase() !== 'false') {
      var parent = el.parentElement;
      if (!(parent && parent.isContentEditable)) return 'textbox';
    }
    return null;
  }
  function roleOf(el) {
    var explicit = el.getAttribute('role');
    if (explicit) {
      var tokens = explicit.toLowerCase().split(/\s+/);
      for (var i = 0; i < tokens.length; i++) if (WIDGET_ROLES.has(tokens[i])) return tokens[i];
    }
    return implicitRole(el);
  }

  function partText(c) {
    if (c.nodeType === 3) return c.data;
    if (c.nodeType !== 1 || c.getAttribute('aria-hidden') === 'true') return '';
    var sep = INLINE.has(c.localName) ? '' : ' ';
    var label = c.getAttribute('aria-label');
    if (label) return sep + label + sep;
    if (c.localName === 'img') return sep + (c.getAttribute('alt') || '') + sep;
    return sep + textOf(c) + sep;
  }
  function childrenText(parent) {
    var out = '';
    for (var c = parent.firstChild; c; c = c.nextSibling) out += partText(c);
    return out;
  }
  // The rendered text: a shadow host's shadow tree (slots filled with what is assigned to them).
  function textOf(node) {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1 || SKIP_TEXT.has(node.localName)) return '';
    if (node.shadowRoot) return childrenText(node.shadowRoot);
    if (node.localName === 'slot') {
      var assigned = node.assignedNodes({ flatten: true });
      if (assigned.length) {
        var out = '';
        for (var i = 0; i < assigned.length; i++) out += partText(assigned[i]);
        return out;
      }
    }
    if (node.firstElementChild === null) return node.textContent || '';
    return childrenText(node);
  }
  function nameOf(el, role) {
    var v = el.getAttribute('aria-labelledby');
    if (v) {
      var root = el.getRootNode();
      var parts = v.trim().split(/\s+/), out = '';
      for (var i = 0; i < parts.length; i++) {
        var ref = root.getElementById ? root.getElementById(parts[i]) : null;
        if (ref) out += ' ' + (ref.getAttribute('aria-label') || textOf(ref));
      }
      out = clean(out);
      if (out) return out;
    }
    v = el.getAttribute('aria-label');
    if (v) { v = clean(v); if (v) return v; }
    var tag = el.localName;
    var type = tag === 'input' ? el.type : '';
    if (el.labels && el.labels.length && type !== 'hidden') {
      var text = '';
      for (var j = 0; j < el.labels.length; j++) text += ' ' + textOf(el.labels[j]);
      text = clean(text);
      if (text) return text;
    }
    if (type === 'button' || type === 'submit' || type === 'reset') {
      // A button input's value attribute is its visible caption, not data someone typed.
      var caption = el.getAttribute('value');
      if (caption !== null) { caption = clean(caption); if (caption) return caption; }
      else if (type !== 'button') return type === 'submit' ? 'Submit' : 'Reset';
    }
    if (type === 'image') { v = clean(el.getAttribute('alt') || ''); if (v) return v; }
    if (NAME_FROM_CONTENT.has(role)) { v = clean(textOf(el)); if (v) return v; }
    v = el.getAttribute('title');
    if (v) { v = clean(v); if (v) return v; }
    v = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder');
    if (v) { v = clean(v); if (v) return v; }
    return '';
  }

  function isVisible(el) {
    if (el.checkVisibility && !el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true })) return false;
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  function isSecure(el) {
    if (el.localName === 'input' && el.type === 'password') return true;
    var ac = el.getAttribute('autocomplete');
    if (!ac) return false;
    var tokens = ac.toLowerCase().split(/\s+/);
    for (var i = 0; i < tokens.length; i++) if (SECURE.has(tokens[i])) return true;
    return false;
  }
  function isEditable(el) {
    var tag = el.localName;
    if (tag === 'input') return !el.readOnly && el.getAttribute('aria-readonly') !== 'true' && inputRole(el) !== 'button';
    if (tag === 'textarea') return !el.readOnly && el.getAttribute('aria-readonly') !== 'true';
    return el.isContentEditable && el.getAttribute('aria-readonly') !== 'true';
  }
  function opsOf(el, role) {
    if (LIVE_REGION.has(role)) return 0;
    if (el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null) return 0;
    var ops = OP_CLICK;
    if (TEXT_ENTRY.has(role) && isEditable(el)) ops |= OP_TYPE;
    if (el.tabIndex >= 0 || el.hasAttribute('tabindex') || el.isContentEditable) ops |= OP_PRESS;
    return ops;
  }

  function capture(doc) {
    var metas = doc.querySelectorAll('meta[name="cutright-capture-state"]');
    var declared = [];
    for (var i = 0; i < metas.length; i++) declared.push(metas[i].getAttribute('content') || '');
    return { origin: doc.defaultView ? doc.defaultView.location.origin : 'null', declared: declared };
  }
  function isSafe(c, allowed) {
    if (allowed.indexOf(c.origin) < 0 || c.declared.length === 0) return false;
    for (var i = 0; i < c.declared.length; i++) if (c.declared[i] !== 'safe') return false;
    return true;
  }

  function frameDocument(el) {
    try { return el.contentDocument; } catch (e) { return null; }
  }
  function pushChildren(stack, parent) {
    for (var c = parent.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  function walk(doc, limit) {
    var out = [];
    var holes = [];
    var truncated = false;
    var stack = [];
    if (doc.documentElement) stack.push(doc.documentElement);
    while (stack.length) {
      var el = stack.pop();
      var tag = el.localName;
      if (SKIP_WALK.has(tag)) continue;
      if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) continue;
      var role = roleOf(el);
      if (role !== null && isVisible(el)) {
        var name = nameOf(el, role);
        // An empty live region says nothing yet: leave it out.
        if (!(LIVE_REGION.has(role) && name === '')) {
          if (out.length >= limit) { truncated = true; break; }
          out.push([keyFor(el), role, name, opsOf(el, role), isSecure(el) ? 1 : 0]);
        }
      }
      pushChildren(stack, el);
      if (el.shadowRoot) pushChildren(stack, el.shadowRoot);
      if (tag === 'iframe' || tag === 'frame') {
        var inner = frameDocument(el);
        if (inner) { if (inner.documentElement) stack.push(inner.documentElement); }
        else if (isVisible(el)) holes.push([keyFor(el), out.length]);
      }
    }
    return { elements: out, truncated: truncated, frames: holes };
  }

  function composedContains(ancestor, node) {
    while (node) {
      if (node === ancestor) return true;
      node = node.parentNode || node.host || null;
    }
    return false;
  }
  function deepHit(doc, x, y) {
    var hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      var inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  function deepActive(doc) {
    var a = doc.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a && (a.localName === 'iframe' || a.localName === 'frame') && frameDocument(a) && frameDocument(a).activeElement) a = frameDocument(a).activeElement;
      else return a;
    }
  }
  function hits(el, hit) {
    if (!hit) return false;
    if (composedContains(el, hit)) return true;
    var labels = el.labels;
    if (labels) for (var i = 0; i < labels.length; i++) if (composedContains(labels[i], hit)) return true;
    return false;
  }
  function describe(node) {
    if (!node) return 'nothing';
    var s = '<' + node.localName;
    if (node.id) s += ' id="' + clean(node.id).slice(0, 40) + '"';
    var cls = node.getAttribute('class');
    if (cls && clean(cls)) s += ' class="' + clean(cls).slice(0, 60) + '"';
    s += '>';
    var role = roleOf(node);
    if (role) s += ' (' + role + ' "' + nameOf(node, role).slice(0, 60) + '")';
    return s;
  }
  function viewport(doc) {
    var win = doc.defaultView, de = doc.documentElement;
    return { w: Math.min(win.innerWidth, de.clientWidth || win.innerWidth), h: Math.min(win.innerHeight, de.clientHeight || win.innerHeight) };
  }
  function pointOf(el, res) {
    var doc = el.ownerDocument;
    var vp = viewport(doc);
    var r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > vp.h || r.right > vp.w) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      res.scrolled = true;
      r = el.getBoundingClientRect();
    }
    var left = Math.max(r.left, 0), top = Math.max(r.top, 0);
    var right = Math.min(r.right, vp.w), bottom = Math.min(r.bottom, vp.h);
    if (right <= left || bottom <= top) { res.status = 'offscreen'; return res; }
    var x = (left + right) / 2, y = (top + bottom) / 2;
    var hit = deepHit(doc, x, y);
    if (!hits(el, hit)) { res.status = hit ? 'covered' : 'offscreen'; res.coveredBy = describe(hit); return res; }
    return lift(doc.defaultView.frameElement, x, y, res);
  }
  // Where a frame's content box starts in its parent's viewport: its box plus border and padding.
  function contentOrigin(frame) {
    var fr = frame.getBoundingClientRect();
    var style = frame.ownerDocument.defaultView.getComputedStyle(frame);
    return { x: fr.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0), y: fr.top + frame.clientTop + (parseFloat(style.paddingTop) || 0) };
  }
  // Maps (x, y) of the document inside the frame element up through same-origin parents (frameElement
  // is null at a cross-origin boundary, where the driver goes on in the parent's agent),
  // checking at each level that the frame itself is what is at that point.
  function lift(frame, x, y, res) {
    while (frame) {
      var o = contentOrigin(frame);
      x += o.x;
      y += o.y;
      var outer = deepHit(frame.ownerDocument, x, y);
      if (outer !== frame) { res.status = outer ? 'covered' : 'offscreen'; res.coveredBy = describe(outer); return res; }
      frame = frame.ownerDocument.defaultView.frameElement;
    }
    res.status = 'ok';
    res.x = x;
    res.y = y;
    return res;
  }
  // Maps (x, y) of a cross-origin child frame's viewport to this world's top viewport, scrolling
  // the iframe into view when the point lies outside this document's viewport.
  function framePoint(key, x, y) {
    var res = { status: 'gone' };
    var frame = lookup(key);
    if (!frame) return res;
    if (!isVisible(frame) || frame.closest('[aria-hidden="true"],[inert]') !== null) { res.status = 'hidden'; return res; }
    var doc = frame.ownerDocument;
    var vp = viewport(doc);
    var o = contentOrigin(frame);
    if (o.x + x < 0 || o.y + y < 0 || o.x + x >= vp.w || o.y + y >= vp.h) {
      frame.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      res.scrolled = true;
      o = contentOrigin(frame);
      if (o.x + x < 0 || o.y + y < 0 || o.x + x >= vp.w || o.y + y >= vp.h) { res.status = 'offscreen'; return res; }
    }
    var hit = deepHit(doc, o.x + x, o.y + y);
    if (hit !== frame) { res.status = hit ? 'covered' : 'offscreen'; res.coveredBy = describe(hit); return res; }
    return lift(doc.defaultView.frameElement, o.x + x, o.y + y, res);
  }

  G.__cutrightAgent = {
    worldId: worldId,
    capture: function () { return capture(document); },
    // framed: this is a cross-origin child frame, listed when its origin is allowed (the
    // page's declaration is the top document's business).
    snapshot: function (allowed, limit, framed) {
      var c = capture(document);
      if (framed ? allowed.indexOf(c.origin) < 0 : !isSafe(c, allowed)) return { capture: c, elements: null, truncated: false, frames: [] };
      var result = walk(document, limit);
      if (byId.size > 2 * result.elements.length + 256) prune();
      return { capture: c, elements: result.elements, truncated: result.truncated, frames: result.frames };
    },
    element: function (key) { return lookup(key); },
    // Resolves once the document has rendered twice: after a scroll, the browser routes input to
    // an out-of-process frame by where it was last drawn, not where it is now.
    settle: function () {
      return new Promise(function (resolve) {
        var done = function () { resolve(true); };
        requestAnimationFrame(function () { requestAnimationFrame(done); });
        setTimeout(done, 200);
      });
    },
    framePoint: framePoint,
    prepare: function (allowed, key, expectRole, expectLabel, op, framed) {
      var res = { capture: capture(document), status: 'unsafe' };
      if (framed ? allowed.indexOf(res.capture.origin) < 0 : !isSafe(res.capture, allowed)) return res;
      var el = lookup(key);
      if (!el) { res.status = 'gone'; return res; }
      var role = roleOf(el);
      var label = role ? nameOf(el, role) : '';
      res.role = role;
      res.label = label;
      if (role !== expectRole || label !== expectLabel) { res.status = 'changed'; return res; }
      if (isSecure(el)) { res.status = 'secure'; return res; }
      if (!isVisible(el) || el.closest('[aria-hidden="true"],[inert]') !== null) { res.status = 'hidden'; return res; }
      var ops = opsOf(el, role);
      res.ops = ops;
      if (ops === 0) { res.status = 'disabled'; return res; }
      var need = op === 'click' ? OP_CLICK : op === 'type' ? OP_TYPE : OP_PRESS;
      if ((ops & need) === 0) { res.status = 'op'; return res; }
      if (op === 'press') {
        el.focus();
        // In a child frame the page's focus must have followed, or the key would go elsewhere.
        res.status = composedContains(el, deepActive(document)) && (!framed || document.hasFocus()) ? 'ok' : 'unfocusable';
        return res;
      }
      return pointOf(el, res);
    },
    caretToEnd: function (key, framed) {
      var el = lookup(key);
      if (!el || !composedContains(el, deepActive(document))) return false;
      // A frame keeps its activeElement when the page's focus is elsewhere: ask for the focus.
      if (framed && !document.hasFocus()) return false;
      if (el.localName === 'input' || el.localName === 'textarea') {
        // Offsets past the end are clamped to it: no need to read the value's length.
        try { el.setSelectionRange(1e9, 1e9); } catch (e) { /* types without a selection (email, number) */ }
      } else if (el.isContentEditable) {
        var sel = el.ownerDocument.getSelection();
        if (sel) { sel.selectAllChildren(el); sel.collapseToEnd(); }
      }
      return true;
    },
  };
  return worldId;
}`;
