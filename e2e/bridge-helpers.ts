// For specs about the host's core rather than about the page: answering consent over the web
// shell's real WebSocket bridge, as the UI page does, and a client's first snapshot.
import WebSocket from 'ws';
import type { DemoClient } from '../src/client/client.js';
import type { RunningHost } from './host-fixture.js';

/** Answers every consent prompt with Allow over the bridge. */
export function autoAllow(host: RunningHost): WebSocket {
  const url = new URL(host.uiUrl);
  const ws = new WebSocket(`ws://${url.host}${url.pathname}bridge`, { origin: url.origin });
  let id = 0;
  ws.on('message', (data, isBinary) => {
    if (isBinary) return; // a live frame
    const message = JSON.parse(String(data)) as { type: string; view?: { consent: { consentId: string } | null } };
    if (message.type === 'view' && message.view?.consent) {
      ws.send(JSON.stringify({ type: 'call', id: ++id, call: 'answerConsent', args: [message.view.consent.consentId, 'allow'] }));
    }
  });
  ws.on('error', () => {});
  return ws;
}

/** The session's first snapshot over `client`, taken as soon as the session is armed. */
export async function armedElements(client: DemoClient, token: string): ReturnType<typeof firstSnapshot> {
  for (;;) {
    try {
      return await firstSnapshot(client, token);
    } catch (error) {
      if ((error as { code?: string }).code !== 'not_armed') throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function firstSnapshot(client: DemoClient, token: string) {
  return (await client.call('demo.snapshot', { token })).elements;
}
