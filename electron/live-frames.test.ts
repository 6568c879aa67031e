// Live frames over IPC: one in flight a window, the newest replacing the one waiting, only to
// the main and kill windows, and only a host window's page may say it took one.
import { describe, expect, it } from 'vitest';
import type { LiveFrame } from '../src/ui-protocol/index.js';
import { CHANNEL_FRAME } from './ipc-channels.js';
import { createLiveFrameSender } from './live-frames.js';

class ContentsStandIn {
  readonly sent: unknown[][] = [];
  destroyed = false;
  constructor(readonly id: number) {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }
}

const frame = (seq: number): LiveFrame => ({ type: 'frame', sessionId: 's-1', seq, at: seq, width: 1, height: 1, viewport: { width: 1, height: 1 }, data: new Uint8Array([seq]) });
const pageFrame = { parent: null, url: 'cutright://app/index.html' };

describe('live frames over IPC', () => {
  it('sends one frame at a time a window; a slow window gets the newest next, the rest are dropped', () => {
    const main = new ContentsStandIn(1);
    const consent = new ContentsStandIn(2);
    const roles = new Map<number, 'main' | 'consent' | 'kill'>([[1, 'main'], [2, 'consent']]);
    const sender = createLiveFrameSender({ roleOf: (c) => roles.get(c.id) });
    for (let seq = 1; seq <= 4; seq++) sender.send([main, consent], frame(seq));
    expect(main.sent.map((m) => [m[0], (m[1] as { seq: number }).seq])).toEqual([[CHANNEL_FRAME, 1]]);
    expect(consent.sent).toEqual([]);
    sender.taken({ sender: main, senderFrame: pageFrame } as never);
    expect(main.sent.map((m) => (m[1] as { seq: number }).seq)).toEqual([1, 4]);
    expect(main.sent[1]?.[2]).toEqual(new Uint8Array([4]));
  });

  it('ignores a taken message from a page that is not the app', () => {
    const main = new ContentsStandIn(1);
    const logged: string[] = [];
    const sender = createLiveFrameSender({ roleOf: () => 'main', log: (m) => logged.push(m) });
    sender.send([main], frame(1));
    sender.send([main], frame(2));
    sender.taken({ sender: main, senderFrame: { parent: null, url: 'https://evil.example/' } } as never);
    expect(main.sent).toHaveLength(1);
    expect(logged[0]).toMatch(/not the app's own page/);
  });
});
