// The refs one session has issued. A ref is opaque and unguessable (96 random bits), valid
// only in the session that issued it, and names one element: the same live node with the
// same role and label gets the same ref in every snapshot; a node whose role or label changed
// gets a new ref, and the old one then fails (the driver re-checks role and label at act time).
import { randomBytes } from 'node:crypto';
import type { ElementOp } from '../contract/types.js';
import type { DriverElement } from '../targets/types.js';

export interface RefEntry {
  nodeKey: string;
  role: string;
  label: string;
  ops: ElementOp[];
  secure: boolean;
}

/** Past this many refs the oldest are forgotten (they then fail as unknown refs). */
const MAX_REFS_PER_SESSION = 50_000;

export class RefTable {
  private readonly byRef = new Map<string, RefEntry>();
  private readonly byIdentity = new Map<string, string>();

  constructor(private readonly random: (size: number) => Buffer = randomBytes) {}

  refFor(element: DriverElement): string {
    const identity = `${element.nodeKey}\u0000${element.role}\u0000${element.label}`;
    const existing = this.byIdentity.get(identity);
    const entry: RefEntry = { nodeKey: element.nodeKey, role: element.role, label: element.label, ops: [...element.ops], secure: element.secure };
    if (existing !== undefined) {
      // Ops follow state (a button may become disabled): keep the latest.
      this.byRef.set(existing, entry);
      return existing;
    }
    const ref = `e-${this.random(12).toString('base64url')}`;
    this.byRef.set(ref, entry);
    this.byIdentity.set(identity, ref);
    while (this.byRef.size > MAX_REFS_PER_SESSION) {
      const oldest = this.byRef.keys().next().value;
      if (oldest === undefined) break;
      const gone = this.byRef.get(oldest);
      this.byRef.delete(oldest);
      if (gone) this.byIdentity.delete(`${gone.nodeKey}\u0000${gone.role}\u0000${gone.label}`);
    }
    return ref;
  }

  lookup(ref: string): RefEntry | undefined {
    return this.byRef.get(ref);
  }

  get size(): number {
    return this.byRef.size;
  }
}
