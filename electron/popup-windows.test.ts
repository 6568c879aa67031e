import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { HostView, LiveSession } from '../src/ui-protocol/index.js';
import { createPopupWindows, type PopupRole, type PopupWindow } from './popup-windows.js';

class WindowStandIn extends EventEmitter implements PopupWindow {
  destroyed = false;
  focused = 0;
  constructor(readonly role: PopupRole) {
    super();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
  focus(): void {
    this.focused += 1;
  }
  /** The person closes it (title bar, Alt+F4). */
  closeByPerson(): void {
    this.destroy();
  }
}

const base: HostView = { demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion: 0, problems: [] };
const consent = (consentId: string): HostView => ({
  ...base,
  consent: { consentId, appId: 'app.example', appName: 'Example', agentName: 'Agent', appUrl: 'https://example.com/', requester: { pid: 4242, executable: '/usr/bin/agent', otherUser: null, sharedWith: 0, unknown: null }, requestedAt: 1 },
});
const session: LiveSession = { sessionId: 's-1', appId: 'app.example', appName: 'Example', agentName: 'Agent', phase: 'armed', startedAt: 1, steps: 0, cannotOpen: null };

function setup() {
  const opened: WindowStandIn[] = [];
  const answers: string[] = [];
  const popups = createPopupWindows({
    openWindow: (role) => {
      const window = new WindowStandIn(role);
      opened.push(window);
      return window;
    },
    answerConsent: async (consentId, answer) => void answers.push(`${consentId}:${answer}`),
  });
  const open = (role: PopupRole) => opened.filter((w) => w.role === role && !w.destroyed);
  return { popups, opened, answers, open };
}

describe('the consent and kill windows', () => {
  it('opens the consent dialog for a question and closes it when answered', () => {
    const { popups, open, answers } = setup();
    popups.update(base);
    expect(open('consent')).toHaveLength(0);
    popups.update(consent('s-1'));
    expect(open('consent')).toHaveLength(1);
    popups.update(consent('s-1'));
    expect(open('consent')).toHaveLength(1);
    popups.update({ ...base, live: [session] });
    expect(open('consent')).toHaveLength(0);
    expect(answers).toEqual([]);
  });

  it('denies when the person closes the dialog', () => {
    const { popups, open, answers } = setup();
    popups.update(consent('s-1'));
    open('consent')[0]!.closeByPerson();
    expect(answers).toEqual(['s-1:deny']);
  });

  it('keeps one dialog for the queue, brings it forward for the next question, and denies the one shown', () => {
    const { popups, open, opened, answers } = setup();
    popups.update(consent('s-1'));
    popups.update(consent('s-2'));
    expect(opened.filter((w) => w.role === 'consent')).toHaveLength(1);
    expect(open('consent')[0]!.focused).toBe(1);
    open('consent')[0]!.closeByPerson();
    expect(answers).toEqual(['s-2:deny']);
  });

  it('shows the kill control while any session is live, and only then', () => {
    const { popups, open } = setup();
    popups.update(consent('s-1'));
    expect(open('kill')).toHaveLength(0);
    popups.update({ ...base, live: [session] });
    expect(open('kill')).toHaveLength(1);
    popups.update({ ...base, live: [session, { ...session, sessionId: 's-2' }] });
    expect(open('kill')).toHaveLength(1);
    popups.update(base);
    expect(open('kill')).toHaveLength(0);
  });

  it('puts the kill control back if it is closed while a session is live', () => {
    const { popups, open, opened } = setup();
    popups.update({ ...base, live: [session] });
    open('kill')[0]!.closeByPerson();
    expect(open('kill')).toHaveLength(1);
    expect(opened.filter((w) => w.role === 'kill')).toHaveLength(2);
  });

  it('closes both on quit, without denying or reopening anything', () => {
    const { popups, open, answers } = setup();
    popups.update({ ...consent('s-2'), live: [session] });
    popups.closeAll();
    expect(open('consent').length + open('kill').length).toBe(0);
    expect(answers).toEqual([]);
    popups.update({ ...consent('s-3'), live: [session] });
    expect(open('consent').length + open('kill').length).toBe(0);
  });
});
