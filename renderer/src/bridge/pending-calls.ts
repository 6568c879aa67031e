// The web bridge's calls in flight: sent and waiting for their reply, or queued until the
// connection being made opens. Each settles once: with its reply, or rejected when the
// socket drops or the bridge closes.
import type { BridgeCall, WebBridgeClientMessage } from '../../../src/ui-protocol/index.js';

interface Pending {
  call: BridgeCall;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A reply as the server sends it (src/ui-protocol/transports.ts). */
export type CallReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string } };

export class PendingCalls {
  private readonly sent = new Map<number, Pending>();
  private queued: Array<{ id: number; pending: Pending; args: unknown[] }> = [];
  private nextId = 1;

  /** A call to make: sent now through `send`, or queued (`send` null) until `flush`. */
  start(call: BridgeCall, args: unknown[], send: ((text: string) => void) | null): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const pending: Pending = { call, resolve, reject };
      if (send) this.send(send, id, pending, args);
      else this.queued.push({ id, pending, args });
    });
  }

  /** The connection opened: the queued calls go out, in order. */
  flush(send: (text: string) => void): void {
    const waiting = this.queued;
    this.queued = [];
    for (const q of waiting) this.send(send, q.id, q.pending, q.args);
  }

  /** Settles the call a reply is for; a reply to a call rejected already is dropped. */
  settle(reply: CallReply): void {
    const pending = this.sent.get(reply.id);
    if (!pending) return; // a reply to a call rejected already (the socket dropped and came back)
    this.sent.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(new Error(reply.error.message));
  }

  /** Rejects every call sent or queued, saying why. */
  rejectAll(message: string): void {
    const all = [...this.sent.values(), ...this.queued.map((q) => q.pending)];
    this.sent.clear();
    this.queued = [];
    for (const pending of all) pending.reject(new Error(`${pending.call}: ${message}`));
  }

  private send(send: (text: string) => void, id: number, pending: Pending, args: unknown[]): void {
    const message: WebBridgeClientMessage = { type: 'call', id, call: pending.call, args };
    this.sent.set(id, pending);
    try {
      send(JSON.stringify(message));
    } catch (error) {
      this.sent.delete(id);
      pending.reject(new Error(`Could not send ${pending.call} to the host: ${(error as Error).message}`));
    }
  }
}
