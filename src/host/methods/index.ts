// Every method of the agent demo service and its handler. Adding a method touches its file
// and this table, nothing else; `satisfies` keeps each handler typed by the contract.
import { act } from './act.js';
import { apps } from './apps.js';
import { batch } from './batch.js';
import { end } from './end.js';
import { request } from './request.js';
import { snapshot } from './snapshot.js';
import { ToolError } from '../../contract/errors.js';
import type { DemoMethod, DemoMethods } from '../../contract/types.js';
import type { CallContext } from '../../service/server.js';
import type { MethodHandler, MethodHost, MethodTable } from './types.js';

export const METHODS = {
  'demo.apps': apps,
  'demo.request': request,
  'demo.snapshot': snapshot,
  'demo.act': act,
  'demo.batch': batch,
  'demo.end': end,
} satisfies MethodTable;

/** The agent demo service over `host`: each call goes to its method's handler while Demo mode is on. */
export function serveMethods(host: MethodHost) {
  const methods: MethodTable = METHODS;
  return async function handle<M extends DemoMethod>(method: M, params: DemoMethods[M]['params'], call: CallContext): Promise<DemoMethods[M]['result']> {
    if (!host.settings.demoMode) throw new ToolError('demo_disabled', 'Demo mode is switched off in CutRight host');
    const handler: MethodHandler<M> = methods[method];
    return handler(params, host, call);
  };
}

export type { MethodHandler, MethodHost, MethodTable } from './types.js';
