// demo.act's work on one element: check the capture state, ask the element's agent to
// re-check it is still the node with this role and label (and focus it, or find the point to
// click), then send the input. Every refusal names the element and what to do.
import { ToolError } from '../contract/errors.js';
import type { ElementOp } from '../contract/types.js';
import { PageTimeout, type AgentFrames } from './agent-frames.js';
import type { CaptureCheck } from './capture-state.js';
import { click, describeTarget, press, topPoint } from './input.js';
import { parseKey, type ParsedKey } from './keys.js';
import type { PagePrepare } from './page-agent/protocol.js';
import { opsFromMask } from './snapshot.js';
import type { ActInput, ActOutcome, CdpTransport } from './types.js';

const OPS: ReadonlySet<string> = new Set<ElementOp>(['click', 'type', 'press']);

export interface ActOptions {
  allowedOrigins: string[];
  platform: NodeJS.Platform;
  timeoutMs: number;
}

type Expect = { role: string; label: string };

function refusal(check: CaptureCheck, prepared: PagePrepare, input: ActInput, expect: Expect): Error | undefined {
  const target = describeTarget(expect);
  switch (prepared.status) {
    case 'ok':
      return undefined;
    case 'unsafe': {
      const decision = check.decide(prepared.capture);
      return new ToolError('capture_unsafe', `the target is not capture-safe: ${decision.reason ?? decision.state}`);
    }
    case 'gone':
      return new ToolError('invalid_arguments', `ref for ${target} is gone or changed; take a new snapshot`);
    case 'changed':
      return new ToolError(
        'invalid_arguments',
        `ref for ${target} is gone or changed (it is now ${prepared.role ?? 'not a control'} ${JSON.stringify(prepared.label ?? '')}); take a new snapshot`,
      );
    case 'secure':
      return new ToolError('target_blocked', `${target} is a secure field; CutRight never acts on secure fields`);
    case 'hidden':
      return new ToolError('invalid_arguments', `${target} is no longer visible; take a new snapshot`);
    case 'disabled':
      return new ToolError('invalid_arguments', `${target} is disabled`);
    case 'op':
      return new ToolError(
        'invalid_arguments',
        `${target} does not take ${input.op} (it takes ${opsFromMask(prepared.ops ?? 0).join(', ') || 'nothing'})`,
      );
    case 'unfocusable':
      return new ToolError('invalid_arguments', `${target} did not take focus, so the key was not pressed`);
    case 'offscreen':
      return new ToolError('invalid_arguments', `${target} cannot be scrolled into view`);
    case 'covered':
      return new ToolError('invalid_arguments', `${target} is covered by ${prepared.coveredBy ?? 'another element'}`);
    default:
      return new Error(`unexpected answer from the page agent: ${String(prepared.status)}`);
  }
}

/** Checks the input's shape; returns the parsed key of a press. */
function checkInput(input: ActInput, platform: NodeJS.Platform): ParsedKey | undefined {
  if (!input || typeof input.nodeKey !== 'string') throw new ToolError('invalid_arguments', 'act needs a nodeKey');
  if (!OPS.has(input.op)) throw new ToolError('invalid_arguments', `unknown op ${JSON.stringify(input.op)}`);
  if (input.op === 'type' && typeof input.text !== 'string') throw new ToolError('invalid_arguments', 'type needs text');
  if (input.op !== 'press') return undefined;
  if (typeof input.key !== 'string') throw new ToolError('invalid_arguments', 'press needs key');
  return parseKey(input.key, platform);
}

export class Actor {
  constructor(
    private readonly transport: CdpTransport,
    private readonly frames: AgentFrames,
    private readonly check: CaptureCheck,
    private readonly options: ActOptions,
  ) {}

  async act(input: ActInput, expect: Expect, signal?: AbortSignal): Promise<ActOutcome> {
    const { frames, options, transport } = this;
    const key = checkInput(input, options.platform);
    // The key's world names the frame it was listed in; a key no world claims is tried on the
    // top page, whose agent finds it gone (after the capture check, as for any key).
    const frame = frames.frameOfKey(input.nodeKey);
    const framed = frame !== frames.top;
    const gone = (): ToolError => new ToolError('invalid_arguments', `ref for ${describeTarget(expect)} is gone or changed; take a new snapshot`);
    if (framed) {
      // The capture-safe rule is the top document's: check it first, as the top's prepare does.
      const state = await this.check.current();
      if (state.state !== 'safe') throw new ToolError('capture_unsafe', `the target is not capture-safe: ${state.reason}`);
    }

    let prepared: PagePrepare;
    try {
      prepared = await frames.call<PagePrepare>(
        frame,
        'prepare',
        [options.allowedOrigins, input.nodeKey, expect.role, expect.label, input.op, framed],
        options.timeoutMs,
      );
    } catch (error) {
      if (error instanceof PageTimeout) {
        if (framed) throw new ToolError('invalid_arguments', `the frame holding ${describeTarget(expect)} did not answer within ${options.timeoutMs} ms`);
        throw new ToolError('capture_unsafe', `the target is not capture-safe: the page did not answer within ${options.timeoutMs} ms`);
      }
      // The frame was removed, or its target went away.
      if (framed) throw gone();
      throw error;
    }
    // A child frame's origin no longer allowed: its elements are not listed, so the ref is gone.
    if (framed && prepared.status === 'unsafe') throw gone();
    const refused = refusal(this.check, prepared, input, expect);
    if (refused) throw refused;

    signal?.throwIfAborted();
    const outcome: ActOutcome = { role: expect.role, label: expect.label };
    if (key) {
      // Key events go to the focused frame, which prepare made the element's.
      await press(transport, key, options.platform);
      return outcome;
    }
    const point = await topPoint(frames, frame, prepared, expect, options.timeoutMs);
    signal?.throwIfAborted();
    await click(transport, point.x, point.y);
    const clicked: ActOutcome = { ...outcome, point: { x: point.x, y: point.y } };
    if (input.op === 'click') return clicked;

    // type: the click focused the field; type at its end, never into whatever else has focus.
    let focused: boolean;
    try {
      focused = await frames.call<boolean>(frame, 'caretToEnd', [input.nodeKey, framed], options.timeoutMs);
    } catch (error) {
      if (framed && !(error instanceof PageTimeout)) throw gone();
      throw error;
    }
    if (!focused) throw new ToolError('invalid_arguments', `${describeTarget(expect)} did not take focus when clicked; nothing was typed`);
    signal?.throwIfAborted();
    if (input.text) await transport.send('Input.insertText', { text: input.text });
    return clicked;
  }
}
