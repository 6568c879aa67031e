// demo.snapshot's walk: the top page's agent lists its elements, and the elements of each
// cross-origin frame it could not enter (a frame hole) are spliced in where the iframe stands,
// walked by that frame's own agent (agent-frames.ts). Cut at the cap, in document order.
import type { ElementOp } from '../contract/types.js';
import type { AgentFrames, Frame } from './agent-frames.js';
import { withTimeout } from './agent-frames.js';
import type { CaptureCheck } from './capture-state.js';
import { OP_CLICK, OP_PRESS, OP_TYPE, type FrameHole, type PageElement, type PageSnapshot } from './page-agent/protocol.js';
import type { DriverElement, DriverSnapshot } from './types.js';

export function opsFromMask(mask: number): ElementOp[] {
  const ops: ElementOp[] = [];
  if (mask & OP_CLICK) ops.push('click');
  if (mask & OP_TYPE) ops.push('type');
  if (mask & OP_PRESS) ops.push('press');
  return ops;
}

interface Walked {
  elements: PageElement[];
  truncated: boolean;
}

export interface SnapshotOptions {
  allowedOrigins: string[];
  maxElements: number;
  timeoutMs: number;
  detached(): boolean;
}

export class SnapshotTaker {
  constructor(
    private readonly frames: AgentFrames,
    private readonly check: CaptureCheck,
    private readonly options: SnapshotOptions,
  ) {}

  async take(): Promise<DriverSnapshot> {
    const { frames, check, options } = this;
    if (options.detached()) return nothing(check.unanswered(undefined));
    const deadline = Date.now() + options.timeoutMs;
    let page: PageSnapshot;
    try {
      page = await frames.call<PageSnapshot>(frames.top, 'snapshot', [options.allowedOrigins, options.maxElements], options.timeoutMs);
    } catch (error) {
      return nothing(check.unanswered(error));
    }
    const decision = check.decide(page.capture);
    if (decision.state !== 'safe' || !page.elements) {
      // Fail closed: whatever the page returned, nothing is listed unless the rule says safe.
      const reason = decision.reason ?? 'the page agent listed nothing for a page the rule calls safe';
      return nothing({ state: decision.state === 'safe' ? 'unknown' : decision.state, reason });
    }
    const walked = await this.withFrames(frames.top, { elements: page.elements, truncated: page.truncated }, page.frames ?? [], options.maxElements, deadline);
    const elements: DriverElement[] = walked.elements.map(([nodeKey, role, label, mask, secure]) => ({
      nodeKey,
      role,
      label,
      ops: opsFromMask(mask),
      secure: secure === 1,
    }));
    return { captureState: 'safe', elements, truncated: walked.truncated };
  }

  /**
   * Splices the elements of the cross-origin frames at `holes` into `walked` (the walk of
   * `frame`), in document order, cut at `limit`. A frame on an origin that is not allowed, or
   * that fails or does not answer by `deadline`, is left out.
   */
  private async withFrames(frame: Frame, walked: Walked, holes: FrameHole[], limit: number, deadline: number): Promise<Walked> {
    if (holes.length === 0) return walked;
    const inner = await Promise.all(holes.map(([ownerKey, before]) => this.walkChild(frame, ownerKey, limit - before, deadline)));
    const out: PageElement[] = [];
    let truncated = walked.truncated;
    let from = 0;
    holes.forEach(([, before], index) => {
      for (; from < before; from++) out.push(walked.elements[from] as PageElement);
      const child = inner[index];
      if (!child) return;
      out.push(...child.elements);
      truncated ||= child.truncated;
    });
    for (; from < walked.elements.length; from++) out.push(walked.elements[from] as PageElement);
    if (out.length > limit) {
      out.length = limit;
      truncated = true;
    }
    return { elements: out, truncated };
  }

  private async walkChild(parent: Frame, ownerKey: string, limit: number, deadline: number): Promise<Walked | undefined> {
    const left = (): number => Math.max(deadline - Date.now(), 1);
    try {
      const frame = await withTimeout(this.frames.childFrame(parent, ownerKey), left(), 'a frame of the page');
      if (!frame) return undefined;
      const page = await this.frames.call<PageSnapshot>(frame, 'snapshot', [this.options.allowedOrigins, Math.max(limit, 0), true], left());
      // Listed only when the frame's own origin is allowed (the capture-safe rule's origins).
      if (!page.elements) return undefined;
      return await this.withFrames(frame, { elements: page.elements, truncated: page.truncated }, page.frames ?? [], limit, deadline);
    } catch {
      return undefined;
    }
  }
}

function nothing(decision: { state: DriverSnapshot['captureState']; reason?: string }): DriverSnapshot {
  return { captureState: decision.state, captureReason: decision.reason, elements: [], truncated: false };
}
