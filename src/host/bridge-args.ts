// Checks the arguments of a bridge call that arrived over a transport (WebSocket, IPC): every
// payload is `unknown` until checked ("Got an invalid value over IPC").
import { BRIDGE_CALLS, type BridgeCall, type ConsentAnswer } from './bridge.js';

export type CheckedBridgeCall =
  | { call: 'answerConsent'; consentId: string; answer: ConsentAnswer }
  | { call: 'kill'; sessionId: string }
  | { call: 'listBundles' }
  | { call: 'getBundle'; bundleId: string }
  | { call: 'getSettings' }
  | { call: 'saveSettings'; settings: unknown };

export class BridgeArgumentError extends Error {
  override readonly name = 'BridgeArgumentError';
}

function shortString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) throw new BridgeArgumentError(`${what} must be a non-empty string`);
  return value;
}

export function isBridgeCall(value: unknown): value is BridgeCall {
  return typeof value === 'string' && (BRIDGE_CALLS as readonly string[]).includes(value);
}

export function checkBridgeArgs(call: unknown, args: unknown): CheckedBridgeCall {
  if (!isBridgeCall(call)) throw new BridgeArgumentError(`unknown bridge call ${JSON.stringify(call)}`);
  if (!Array.isArray(args)) throw new BridgeArgumentError(`${call}: arguments must be an array`);
  const expect = (count: number) => {
    if (args.length !== count) throw new BridgeArgumentError(`${call} takes ${count} argument(s), got ${args.length}`);
  };
  switch (call) {
    case 'answerConsent': {
      expect(2);
      const answer = args[1];
      if (answer !== 'allow' && answer !== 'deny') throw new BridgeArgumentError('answerConsent: answer must be "allow" or "deny"');
      return { call, consentId: shortString(args[0], 'answerConsent: consentId'), answer };
    }
    case 'kill':
      expect(1);
      return { call, sessionId: shortString(args[0], 'kill: sessionId') };
    case 'getBundle':
      expect(1);
      return { call, bundleId: shortString(args[0], 'getBundle: bundleId') };
    case 'saveSettings':
      expect(1);
      return { call, settings: args[0] };
    case 'listBundles':
    case 'getSettings':
      expect(0);
      return { call };
  }
}
