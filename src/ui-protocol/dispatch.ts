// The host side of the bridge table: carries one call that arrived over a transport (an IPC
// invoke, a WebSocket message) to the host's implementation. Name, caller and arguments are
// `unknown` until checked here; both shells go through this one function.
import { BRIDGE_TABLE, isBridgeCall, mayCall, type BridgeArgs, type BridgeCall, type BridgeCalls, type WindowRole } from './calls.js';
import { parseOrThrow } from './issues.js';

/** A call refused for its name or arguments: nothing reached the host. */
export class BridgeArgumentError extends Error {
  override readonly name = 'BridgeArgumentError';
}

/** A call refused because the window that made it may not make it. */
export class BridgeRoleError extends Error {
  override readonly name = 'BridgeRoleError';
}

/** Who made a call: a name for messages ("the consent window") and the roles it holds. */
export interface BridgeCaller {
  readonly name: string;
  readonly roles: readonly WindowRole[];
}

/** Checks a call's arguments against its row of the table; throws a BridgeArgumentError naming the first bad one. */
export function checkBridgeArgs<K extends BridgeCall>(call: K, args: unknown): BridgeArgs<K> {
  const specs = BRIDGE_TABLE[call].args;
  if (!Array.isArray(args)) throw new BridgeArgumentError(`${call}: arguments must be an array`);
  if (args.length !== specs.length) throw new BridgeArgumentError(`${call} takes ${specs.length} argument(s), got ${args.length}`);
  const fail = (message: string) => new BridgeArgumentError(`${call}: ${message}`);
  return specs.map(([name, schema], i) => parseOrThrow(schema, args[i], name, fail)) as BridgeArgs<K>;
}

/**
 * Checks and carries one call: its name, then the caller's right to make it, then its
 * arguments. Resolves with the result as a transport carries it (`undefined` becomes `null`,
 * so both transports give the renderer one shape).
 */
export async function dispatchBridgeCall(bridge: BridgeCalls, caller: BridgeCaller, call: unknown, args: unknown): Promise<unknown> {
  if (!isBridgeCall(call)) throw new BridgeArgumentError(`unknown bridge call ${JSON.stringify(call)}`);
  if (!mayCall(caller.roles, call)) throw new BridgeRoleError(`${caller.name} may not call ${call}`);
  const checked = checkBridgeArgs(call, args);
  const method = bridge[call] as (...values: unknown[]) => Promise<unknown>;
  const value = await method.apply(bridge, checked);
  return value ?? null;
}

/** True for refusals of the call itself (nothing reached the host), which shells log differently from failures. */
export function isBridgeRefusal(error: unknown): boolean {
  return error instanceof BridgeArgumentError || error instanceof BridgeRoleError;
}
