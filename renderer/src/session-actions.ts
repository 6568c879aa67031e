// The store's actions on sessions: answering consent, Deny all waiting, Stop demo and Stop all.
// While a call is on its way the buttons wait (`answering`, `stopping`); a failure becomes
// the page's notice, in words.
import type { ConsentAnswer } from '../../src/ui-protocol/index.js';
import { messageOf } from './format.js';
import type { StoreBridge, StoreGet, StoreSet, UiActions } from './store.js';

type SessionActions = Pick<UiActions, 'allow' | 'deny' | 'denyAllWaiting' | 'kill' | 'killAll'>;

export function sessionActions(bridge: StoreBridge, set: StoreSet, get: StoreGet): SessionActions {
  const answer = async (reply: ConsentAnswer): Promise<void> => {
    const consent = get().view?.consent;
    if (!consent || get().answering === consent.consentId) return;
    set({ answering: consent.consentId });
    try {
      await bridge.answerConsent(consent.consentId, reply);
    } catch (error) {
      set({ notice: `Could not ${reply} the demo: ${messageOf(error)}` });
    } finally {
      if (get().answering === consent.consentId) set({ answering: null });
    }
  };

  return {
    allow: () => answer('allow'),
    deny: () => answer('deny'),
    async denyAllWaiting() {
      const consent = get().view?.consent;
      if (consent) set({ answering: consent.consentId });
      try {
        await bridge.denyAllWaiting();
      } catch (error) {
        set({ notice: `Could not deny the waiting requests: ${messageOf(error)}` });
      } finally {
        if (consent && get().answering === consent.consentId) set({ answering: null });
      }
    },
    async kill(sessionId) {
      if (get().stopping.includes(sessionId)) return;
      set({ stopping: [...get().stopping, sessionId] });
      try {
        await bridge.kill(sessionId);
      } catch (error) {
        set({ notice: `Could not stop the demo: ${messageOf(error)}` });
      } finally {
        set({ stopping: get().stopping.filter((id) => id !== sessionId) });
      }
    },
    async killAll() {
      // One call: the host ends every session live when it gets it, including one that went
      // live after this page's last view (a loop over the view's sessions would miss it).
      const ids = (get().view?.live ?? []).map((s) => s.sessionId).filter((id) => !get().stopping.includes(id));
      set({ stopping: [...get().stopping, ...ids] });
      try {
        await bridge.killAll();
      } catch (error) {
        set({ notice: `Could not stop the demos: ${messageOf(error)}` });
      } finally {
        set({ stopping: get().stopping.filter((id) => !ids.includes(id)) });
      }
    },
  };
}
