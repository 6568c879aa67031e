import { BRIDGE_CALLS, type BridgeCall, type BridgeCalls } from '../../../src/ui-protocol/index.js';
import { checkCallResult } from './guards.js';

/** Carries one bridge call to the host and back; the transports differ only in this. */
export type Invoke = (call: BridgeCall, args: unknown[]) => Promise<unknown>;

/** Every call of the bridge table as a method on top of one `invoke`, each result checked against its schema. */
export function callMethods(invoke: Invoke): BridgeCalls {
  const methods: Partial<Record<BridgeCall, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const call of BRIDGE_CALLS) {
    methods[call] = async (...args) => checkCallResult(call, await invoke(call, args));
  }
  return methods as BridgeCalls;
}
