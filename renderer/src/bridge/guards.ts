// Checks for what arrives from the host, with the UI protocol's schemas. Every payload is
// `unknown` until checked here; a bad one is refused with an error naming what was wrong
// rather than rendered half-broken.
import {
  BRIDGE_TABLE, HostViewSchema, WebBridgeServerMessageSchema, parseOrThrow, type BridgeCall, type BridgeResult, type HostView,
  type WebBridgeServerMessage,
} from '../../../src/ui-protocol/index.js';

/** Returns `value` as a HostView, or throws a TypeError naming the first bad field. */
export function parseHostView(value: unknown): HostView {
  return parseOrThrow(HostViewSchema, value, '', (message) => new TypeError(`Invalid host view: ${message}`));
}

/** Parses one WebSocket message from the host, or throws a TypeError saying what was wrong. */
export function parseServerMessage(raw: string): WebBridgeServerMessage {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new TypeError('Bridge message is not JSON');
  }
  return parseOrThrow(WebBridgeServerMessageSchema, value, 'message', (message) => new TypeError(`Invalid bridge message: ${message}`));
}

/** Returns a call's result as its row of the table promises, or throws a TypeError naming the bad field. */
export function checkCallResult<K extends BridgeCall>(call: K, value: unknown): BridgeResult<K> {
  return parseOrThrow(BRIDGE_TABLE[call].result, value, 'result', (message) => new TypeError(`The host answered ${call} wrongly: ${message}`));
}
