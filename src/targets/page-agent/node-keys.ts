// nodeKey: `<world id>.<counter>`, from a WeakMap element → counter, so a key is stable while
// the node lives in this document and never matches a node of another document (each world
// draws its own random id).

export class NodeKeys {
  readonly worldId: string;
  private readonly ids = new WeakMap<Element, number>();
  private readonly byId = new Map<number, WeakRef<Element>>();
  private nextId = 1;

  constructor() {
    const random = new Uint32Array(2);
    crypto.getRandomValues(random);
    this.worldId = (random[0] as number).toString(36) + (random[1] as number).toString(36);
  }

  /** How many keys are remembered (live or not yet pruned). */
  get size(): number {
    return this.byId.size;
  }

  keyFor(el: Element): string {
    let id = this.ids.get(el);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(el, id);
    }
    if (!this.byId.has(id)) this.byId.set(id, new WeakRef(el));
    return `${this.worldId}.${id}`;
  }

  /** The live, connected element behind `key`, or null. */
  lookup(key: unknown): Element | null {
    if (typeof key !== 'string') return null;
    const dot = key.indexOf('.');
    if (dot < 0 || key.slice(0, dot) !== this.worldId) return null;
    const el = this.byId.get(Number(key.slice(dot + 1)))?.deref();
    return el && el.isConnected ? el : null;
  }

  /** Forgets keys whose element was collected or left the document. */
  prune(): void {
    this.byId.forEach((ref, id) => {
      const el = ref.deref();
      if (!el || !el.isConnected) this.byId.delete(id);
    });
  }
}
