// The shape of a method handler and what the host offers the handlers.
import type { DemoMethod, DemoMethods } from '../../contract/types.js';
import type { CallContext } from '../../service/server.js';
import type { AppEntry, Settings } from '../../settings/settings.js';
import type { RequesterView } from '../../ui-protocol/index.js';
import type { Session } from '../session.js';

/** What the method handlers may ask of the host. */
export interface MethodHost {
  /** The settings now (Demo mode, the catalog, denied apps). */
  readonly settings: Settings;
  readonly shuttingDown: boolean;
  /** The apps agents may ask for: the fixture (when fixtures are on) and the settings' catalog. */
  catalog(): AppEntry[];
  /** True when the app points at the host's own UI, which is never a target. */
  isHostItself(app: AppEntry): boolean;
  /** Makes a session for `app` and queues its consent request; refused past the queue's bounds. */
  ask(app: AppEntry, agentName: string, requester: RequesterView, call: CallContext): Session;
  /** Check 4: the session of a live token; `invalid_token`, `session_ended` or `session_killed` otherwise. */
  sessionFor(token: string): Session;
}

/** One method's work, typed by the contract: params checked by the service (checks 1 and 2), result the contract's. */
export type MethodHandler<M extends DemoMethod> = (params: DemoMethods[M]['params'], host: MethodHost, call: CallContext) => Promise<DemoMethods[M]['result']>;

/** Every method of the contract with its handler. */
export type MethodTable = { [M in DemoMethod]: MethodHandler<M> };
