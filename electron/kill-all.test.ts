import { describe, expect, it } from 'vitest';
import type { HostView, LiveSession } from '../src/ui-protocol/index.js';
import { KILL_SHORTCUT, killAllLive } from './kill-all.js';

describe('killAllLive', () => {
  it('kills every live session with the kill control as the reason', async () => {
    const live: LiveSession[] = ['s-1', 's-2'].map((sessionId) => ({ sessionId, appId: 'a', appName: 'A', agentName: 'x', phase: 'armed', startedAt: 1, steps: 0 }));
    const killed: string[] = [];
    const host = {
      view: (): HostView => ({ demoMode: true, consent: null, consentQueue: 0, live, bundlesVersion: 0 }),
      kill: async (sessionId: string, reason?: string) => void killed.push(`${sessionId}:${reason}`),
    };
    await expect(killAllLive(host)).resolves.toBe(2);
    expect(killed).toEqual(['s-1:kill control', 's-2:kill control']);
  });

  it('uses a shortcut the OS does not reserve', () => {
    expect(KILL_SHORTCUT).toBe('CommandOrControl+Alt+Shift+K');
    expect(KILL_SHORTCUT).not.toMatch(/Escape|Esc/);
  });
});
