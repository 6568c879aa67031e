// demo.end: calls in flight finish, the target closes, the bundle is sealed `complete`; an end
// while the session is still arming ends it too.
import type { MethodHandler } from './types.js';

export const end: MethodHandler<'demo.end'> = async (params, host) => {
  const session = host.sessionFor(params.token);
  const { bundleId } = await session.end();
  return { ended: true, bundle_id: bundleId, bundle_state: 'complete' };
};
