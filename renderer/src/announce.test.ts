import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../../src/ui-protocol/index.js';
import { announcements } from './announce.js';

const s = (id: string, extra: Partial<LiveSession> = {}): LiveSession => ({ sessionId: id, appId: 'a', appName: 'Demo Fixture', agentName: 'x', phase: 'arming', startedAt: 1, steps: 0, cannotOpen: null, ...extra });

describe('announcements', () => {
  it('says nothing for what was there when the page opened', () => {
    expect(announcements(null, [s('1')])).toEqual([]);
  });
  it('announces a target that cannot open, once', () => {
    expect(announcements([s('1')], [s('1', { cannotOpen: 'no browser' })])).toEqual(['Could not open Demo Fixture (agent "x"): no browser.']);
    expect(announcements([s('1', { cannotOpen: 'no browser' })], [s('1', { cannotOpen: 'no browser' })])).toEqual([]);
  });
  it('announces a start, recording, each new step and the end', () => {
    expect(announcements([], [s('1')])).toEqual(['Demo session started: Demo Fixture (agent "x").']);
    expect(announcements([s('1')], [s('1', { phase: 'armed' })])).toEqual(['Recording Demo Fixture (agent "x").']);
    expect(announcements([s('1', { phase: 'armed' })], [s('1', { phase: 'armed', steps: 1 })])).toEqual(['Demo Fixture: step 1 done (1 step so far).']);
    expect(announcements([s('1', { phase: 'armed' })], [])).toEqual(['Demo session ended: Demo Fixture (agent "x").']);
  });
  it('says nothing when nothing changed', () => {
    expect(announcements([s('1', { steps: 2 })], [s('1', { steps: 2 })])).toEqual([]);
  });
  it('neutralises the agent name it reads out', () => {
    expect(announcements([], [s('1', { agentName: 'a\u202Eb' })])).toEqual(['Demo session started: Demo Fixture (agent "a[U+202E]b").']);
  });
});
