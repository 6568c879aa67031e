// demo.request: refuses what no person should be asked about, then waits for the person's
// answer; Allow answers with the token once the session's bundle exists (HOST-SPEC section 3).
import { ToolError } from '../../contract/errors.js';
import type { AppEntry } from '../../settings/settings.js';
import { requesterView } from '../requester.js';
import type { MethodHandler, MethodHost } from './types.js';

function appToAsk(host: MethodHost, appId: string): AppEntry {
  const app = host.catalog().find((entry) => entry.id === appId);
  if (!app) throw new ToolError('unknown_app', `app "${appId}" is not in the demo catalog; demo.apps lists the ids`);
  if (host.settings.deniedApps.includes(app.id)) throw new ToolError('target_blocked', `app "${app.id}" is denied in the host's settings`);
  if (host.isHostItself(app)) throw new ToolError('target_blocked', `app "${app.id}" points at CutRight host itself, which is never a target`);
  if (host.shuttingDown) throw new ToolError('service_unavailable', 'the host is shutting down', true);
  return app;
}

export const request: MethodHandler<'demo.request'> = async (params, host, call) => {
  const app = appToAsk(host, params.app);
  const requester = requesterView(await call.requester());
  const session = host.ask(app, params.agent_name, requester, call);
  const outcome = await session.decided;
  if (!outcome.allowed) throw outcome.error;
  return { session: session.id, token: session.issueToken(), app: app.id };
};
