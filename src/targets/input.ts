// Input as a person's: raw CDP mouse and key events sent to the top page, which Chromium
// routes to the frame under the point (or the focused frame, for keys). For an element of a
// cross-origin frame, the point its agent found is mapped up through each parent's iframe box.
import { ToolError } from '../contract/errors.js';
import { PageTimeout, type AgentFrames, type Frame } from './agent-frames.js';
import { keyEventSequence, type ParsedKey } from './keys.js';
import type { FramePoint, PagePrepare } from './page-agent/protocol.js';
import type { CdpTransport } from './types.js';

export function describeTarget(expect: { role: string; label: string }): string {
  return `${expect.role} ${JSON.stringify(expect.label)}`;
}

export async function click(transport: CdpTransport, x: number, y: number): Promise<void> {
  // Sent back to back: CDP handles one session's commands in order, so waiting between them
  // would only add round trips.
  const base = { x, y, button: 'left', clickCount: 1 };
  await Promise.all([
    transport.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' }),
    transport.send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed', buttons: 1 }),
    transport.send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', buttons: 0 }),
  ]);
}

/** Presses `key` in whatever has focus (prepare focused the element first). */
export async function press(transport: CdpTransport, key: ParsedKey, platform: NodeJS.Platform): Promise<void> {
  await Promise.all(keyEventSequence(key, platform).map((event) => transport.send('Input.dispatchKeyEvent', event)));
}

function framePointRefusal(mapped: FramePoint, target: string): ToolError | undefined {
  switch (mapped.status) {
    case 'ok':
      return undefined;
    case 'gone':
      return new ToolError('invalid_arguments', `ref for ${target} is gone or changed (its frame is gone); take a new snapshot`);
    case 'hidden':
      return new ToolError('invalid_arguments', `${target} is no longer visible (its frame is hidden); take a new snapshot`);
    case 'covered':
      return new ToolError('invalid_arguments', `${target} is covered by ${mapped.coveredBy ?? 'another element'}`);
    default:
      return new ToolError('invalid_arguments', `${target} cannot be scrolled into view`);
  }
}

/**
 * Maps a point of `frame`'s viewport to the top page's, through each cross-origin parent's
 * iframe box (border and padding included), checking the iframe is what is at that point.
 */
export async function topPoint(
  frames: AgentFrames,
  frame: Frame,
  prepared: PagePrepare,
  expect: { role: string; label: string },
  timeoutMs: number,
): Promise<{ x: number; y: number }> {
  const target = describeTarget(expect);
  let x = prepared.x as number;
  let y = prepared.y as number;
  let scrolled = prepared.scrolled === true;
  const chain: Frame[] = [frame];
  for (let child = frame; child.parent; child = child.parent) {
    chain.push(child.parent);
    let mapped: FramePoint;
    try {
      mapped = await frames.call<FramePoint>(child.parent, 'framePoint', [child.ownerKey, x, y], timeoutMs);
    } catch (error) {
      if (error instanceof PageTimeout) throw new ToolError('invalid_arguments', `the page holding ${target} did not answer within ${timeoutMs} ms`);
      throw new ToolError('invalid_arguments', `ref for ${target} is gone or changed; take a new snapshot`);
    }
    const refused = framePointRefusal(mapped, target);
    if (refused) throw refused;
    x = mapped.x as number;
    y = mapped.y as number;
    scrolled ||= mapped.scrolled === true;
  }
  // Input for an out-of-process frame is routed by where the browser last saw it drawn: after
  // a scroll, let every document of the chain render before clicking, or the click is lost.
  if (scrolled && chain.length > 1) {
    await Promise.all(chain.map((each) => frames.call(each, 'settle', [], timeoutMs).catch(() => undefined)));
  }
  return { x, y };
}
