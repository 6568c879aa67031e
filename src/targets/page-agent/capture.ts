// The page's side of the capture-safe rule: what it declares (every
// `<meta name="cutright-capture-state">`, in document order) and its origin. The rule itself
// is applied by the driver (policy/capture-safe.ts); `isSafe` is the same rule, checked here
// too so that an unsafe page is never walked.
import { CAPTURE_BINDING, type CaptureReport, type PageCapture } from './protocol.js';

const META_SELECTOR = 'meta[name="cutright-capture-state"]';

export function capture(doc: Document): PageCapture {
  const declared: string[] = [];
  for (const meta of doc.querySelectorAll(META_SELECTOR)) declared.push(meta.getAttribute('content') || '');
  return { origin: doc.defaultView ? doc.defaultView.location.origin : 'null', declared };
}

export function isSafe(c: PageCapture, allowed: readonly string[]): boolean {
  if (!allowed.includes(c.origin) || c.declared.length === 0) return false;
  return c.declared.every((value) => value === 'safe');
}

/** A mutation that may change the declaration: a meta added, removed, renamed or edited. */
function touchesDeclaration(record: MutationRecord): boolean {
  if (record.type === 'attributes') return (record.target as Element).localName === 'meta';
  const touches = (node: Node): boolean =>
    node.nodeType === Node.ELEMENT_NODE &&
    ((node as Element).localName === 'meta' || (node as Element).querySelector('meta') !== null);
  for (const node of record.addedNodes) if (touches(node)) return true;
  for (const node of record.removedNodes) if (touches(node)) return true;
  return false;
}

/** Watches declarations (one observer per document) and numbers the reports of one world. */
export class CaptureWatcher {
  private readonly watched = new WeakSet<Document>();
  private seq = 0;

  constructor(private readonly worldId: string) {}

  private report(doc: Document): CaptureReport {
    return { worldId: this.worldId, seq: ++this.seq, capture: capture(doc) };
  }

  /**
   * Reports every change of `doc`'s declaration through the CAPTURE_BINDING binding, as the
   * mutation happens (a MutationObserver callback runs before the page's next task), only when
   * it differs from the last one reported. Returns the report now. Idempotent per document.
   */
  watch(doc: Document): CaptureReport {
    const now = this.report(doc);
    if (this.watched.has(doc)) return now;
    const send = (globalThis as unknown as Record<string, unknown>)[CAPTURE_BINDING];
    if (typeof send !== 'function') throw new Error(`the ${CAPTURE_BINDING} binding is missing in this world`);
    this.watched.add(doc);
    let last = JSON.stringify(now.capture);
    const observer = new MutationObserver((records) => {
      if (!records.some(touchesDeclaration)) return;
      const report = this.report(doc);
      const text = JSON.stringify(report.capture);
      if (text === last) return;
      last = text;
      (send as (payload: string) => void)(JSON.stringify(report));
    });
    observer.observe(doc, { subtree: true, childList: true, attributes: true, attributeFilter: ['name', 'content'] });
    return now;
  }
}
