// The target driver over one CDP connection (the same code in both shells). Snapshot and
// act each cost one `Runtime.callFunctionOn` into an isolated world where the page agent runs
// (page-agent/, bundled into page-agent.generated.ts); input goes through raw `Input.*` events,
// so the page sees a real click or key press. The parts, by concern:
//   agent-frames.ts   the documents an agent runs in (top page, cross-origin frames) and calls
//   capture-state.ts  the capture-safe check and its watch
//   snapshot.ts       the walk, with cross-origin frames spliced in
//   act.ts, input.ts  acts: re-check, focus or hit-test, mouse and key events
import { ToolError } from '../contract/errors.js';
import { normalizeOrigin } from '../policy/origins.js';
import { Actor } from './act.js';
import { AgentFrames } from './agent-frames.js';
import { CaptureCheck, CaptureWatch } from './capture-state.js';
import { attachChildTargets } from './child-targets.js';
import { SnapshotTaker } from './snapshot.js';
import type { CdpTransport, Dispose, TargetCloseReason, TargetDriver } from './types.js';

export interface CdpDriverOptions {
  /** Origins the session may capture (`scheme://host[:port]`; a URL is cut to its origin). At least one. */
  allowedOrigins: string[];
  /** Snapshot cap: at most this many elements are listed, the rest cut with `truncated`. Default 2000. */
  maxElements?: number;
  /** Platform whose conventions `cmd` and editing keys follow. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** How long the page has to answer the capture check (and act's resolve). Default 2000 ms. */
  captureTimeoutMs?: number;
  /** How long the page has to answer a snapshot walk. Default 10000 ms. */
  snapshotTimeoutMs?: number;
  /**
   * How often a capture-state watch re-checks besides hearing changes as they happen (a page
   * that hangs cannot report a change). Default 1000 ms.
   */
  capturePollMs?: number;
  /**
   * Closes the target when the driver is closed. Default: CDP `Page.close` on the transport.
   * The launcher's `OpenedTarget.close` fits here.
   */
  closeTarget?: () => Promise<void>;
}

export const DEFAULT_MAX_ELEMENTS = 2000;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`createCdpDriver: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Creates a driver for the page behind `transport`. Throws an Error naming a bad option. */
export async function createCdpDriver(transport: CdpTransport, options: CdpDriverOptions): Promise<TargetDriver> {
  if (!options || !Array.isArray(options.allowedOrigins) || options.allowedOrigins.length === 0) {
    throw new Error('createCdpDriver: allowedOrigins must list at least one origin');
  }
  const allowedOrigins = [...new Set(options.allowedOrigins.map(normalizeOrigin))];
  const maxElements = positiveInteger('maxElements', options.maxElements ?? DEFAULT_MAX_ELEMENTS);
  const capturePollMs = positiveInteger('capturePollMs', options.capturePollMs ?? 1000);
  const platform = options.platform ?? process.platform;
  const captureTimeoutMs = options.captureTimeoutMs ?? 2000;
  const snapshotTimeoutMs = options.snapshotTimeoutMs ?? 10_000;

  let closedReason: TargetCloseReason | undefined;
  let closing: Promise<void> | undefined;
  const detached = (): boolean => closedReason !== undefined || closing !== undefined;
  const disposers: Dispose[] = [];
  const frames = new AgentFrames(transport);
  const check = new CaptureCheck(frames, { allowedOrigins, timeoutMs: captureTimeoutMs, detached });
  const watch = new CaptureWatch(transport, frames, check, { pollMs: capturePollMs, timeoutMs: captureTimeoutMs });
  const snapshots = new SnapshotTaker(frames, check, { allowedOrigins, maxElements, timeoutMs: snapshotTimeoutMs, detached });
  const actor = new Actor(transport, frames, check, { allowedOrigins, platform, timeoutMs: captureTimeoutMs });
  const closed = transport.closed.then((reason) => {
    closedReason ??= reason;
    watch.end(`the target is gone (${reason})`);
    return reason;
  });

  // A new document in the main frame has a new isolated world: drop the old one. (A child
  // frame's world is found gone when a call into it fails, and made again.)
  disposers.push(
    transport.on('Page.frameNavigated', (params) => {
      const frame = (params as { frame?: { parentId?: string } } | undefined)?.frame;
      if (frame && !frame.parentId) frames.forgetWorlds();
    }),
  );
  await transport.send('Page.enable');
  // Out-of-process iframes are targets of their own: attach to them once, here, and reuse.
  // A transport that cannot (an old browser) still drives the page and its in-process frames.
  try {
    const targets = await attachChildTargets(transport);
    frames.top.targets = targets;
    disposers.push(() => targets.dispose());
  } catch {
    frames.top.targets = undefined;
  }

  function assertOpen(): void {
    if (closing) throw new Error('the target driver is closed');
    if (closedReason) throw new Error(`the target is gone (${closedReason})`);
  }

  async function screenshot(): Promise<{ mime: string; data: Buffer }> {
    assertOpen();
    // Fail closed: no picture of a page that is not capture-safe (for example right after
    // "Go private"), even when the caller forgot to check.
    const state = await check.current();
    if (state.state !== 'safe') throw new ToolError('capture_unsafe', `the target is not capture-safe: ${state.reason}`);
    // JPEG at quality 70: one picture is kept per step in the bundle, and a JPEG of a page is a
    // fraction of the PNG's size and cheaper to encode, with text still legible.
    const { data } = await transport.send<{ data: string }>('Page.captureScreenshot', {
      format: 'jpeg',
      quality: 70,
      optimizeForSpeed: true,
    });
    return { mime: 'image/jpeg', data: Buffer.from(data, 'base64') };
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      watch.end('the target driver is closed');
      for (const dispose of disposers.splice(0)) dispose();
      frames.forgetWorlds();
      if (closedReason !== undefined) return;
      try {
        if (options.closeTarget) await options.closeTarget();
        else await transport.send('Page.close');
      } catch {
        // Already gone: closing is idempotent and best effort.
      }
    })();
    return closing;
  }

  // Create the world early so the first snapshot does not pay for it; a failure here (the page
  // still navigating) is retried on first use.
  frames.ensureWorld(frames.top).catch(() => undefined);

  return {
    snapshot: () => snapshots.take(),
    captureState: () => check.current(),
    watchCaptureState: (listener) => watch.watch(listener),
    act: async (input, expect, signal) => {
      signal?.throwIfAborted();
      assertOpen();
      return actor.act(input, expect, signal);
    },
    screenshot,
    closed,
    close,
  };
}
