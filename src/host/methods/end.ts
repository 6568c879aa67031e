// demo.end: calls in flight finish, the target closes, the bundle is sealed `complete`; an end
// while the session is still arming ends it too. A session whose target could not be opened
// (permission_missing) ran nothing: its bundle is sealed `killed`, and the answer says so.
import type { MethodHandler } from './types.js';

export const end: MethodHandler<'demo.end'> = async (params, host) => {
  const session = host.sessionFor(params.token);
  const { bundleId, state } = await session.end();
  return { ended: true, bundle_id: bundleId, bundle_state: state };
};
