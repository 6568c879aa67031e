import { describe, expect, it } from 'vitest';
import type { HostView } from '../src/ui-protocol/index.js';
import { trayIconBitmap, trayModel } from './tray.js';

const idle: HostView = { demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion: 0, problems: [] };
const live: HostView = {
  ...idle,
  live: [{ sessionId: 's-1', appId: 'app.example', appName: 'Example', agentName: 'Helper Bot', phase: 'armed', startedAt: 1, steps: 3, cannotOpen: null }],
};

describe('the tray', () => {
  it('says when no demo is running, with Stop demo disabled', () => {
    const model = trayModel(idle);
    expect(model.live).toBe(false);
    expect(model.tooltip).toBe('CutRight: no demo running');
    expect(model.items[0]).toEqual({ kind: 'status', label: 'No demo running' });
    expect(model.items).toContainEqual({ kind: 'action', label: 'Stop demo', action: 'stop-all', enabled: false });
  });

  it('shows a live demo, the agent name as a claim, and an enabled Stop demo', () => {
    const model = trayModel(live);
    expect(model.live).toBe(true);
    expect(model.tooltip).toBe('CutRight: demo live (Example)');
    expect(model.items[0]).toEqual({ kind: 'status', label: 'Demo live: Example (agent claims to be "Helper Bot"), 3 steps' });
    expect(model.items).toContainEqual({ kind: 'action', label: 'Stop demo', action: 'stop-all', enabled: true });
  });

  it('mentions a waiting consent question and demo mode off', () => {
    expect(trayModel({ ...idle, consent: { consentId: 'c', appId: 'a', appName: 'Example', agentName: 'x', appUrl: 'https://example.com/', requester: { pid: 4242, executable: '/usr/bin/agent', otherUser: null, sharedWith: 0, unknown: null }, requestedAt: 1 } }).items[0]).toEqual({
      kind: 'status',
      label: 'Asking to allow a demo of Example',
    });
    expect(trayModel({ ...idle, demoMode: false }).tooltip).toBe('CutRight: demo mode off');
    expect(trayModel(null).live).toBe(false);
  });

  it('draws a grey ring when idle and a red dot when live', () => {
    const size = 32;
    const pixel = (bitmap: Buffer, x: number, y: number) => [...bitmap.subarray((y * size + x) * 4, (y * size + x) * 4 + 4)];
    const idleIcon = trayIconBitmap(size, false);
    const liveIcon = trayIconBitmap(size, true);
    expect(idleIcon).toHaveLength(size * size * 4);
    expect(pixel(idleIcon, 16, 16)).toEqual([0, 0, 0, 0]);
    expect(pixel(liveIcon, 16, 16)).toEqual([0x30, 0x30, 0xe0, 0xff]);
    expect(pixel(idleIcon, 16, 2)).toEqual([0x80, 0x80, 0x80, 0xff]);
    expect(pixel(liveIcon, 0, 0)).toEqual([0, 0, 0, 0]);
    expect(() => trayIconBitmap(4, true)).toThrow(RangeError);
  });
});
