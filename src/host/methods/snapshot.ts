// demo.snapshot: the target's controls with this session's refs, or capture_unsafe with
// nothing listed (the contract's capture-safe rule).
import { ToolError } from '../../contract/errors.js';
import type { MethodHandler } from './types.js';

export const snapshot: MethodHandler<'demo.snapshot'> = async (params, host) => {
  const session = host.sessionFor(params.token);
  return session.run('demo.snapshot', async ({ driver, guard }) => {
    const shot = await guard(driver.snapshot());
    if (shot.captureState !== 'safe') {
      // The reason names what the page lacks (the declaration) or what is wrong (an origin not
      // allowed), so whoever reads it knows what to fix.
      const why = shot.captureReason ?? `its capture state is ${shot.captureState}`;
      throw new ToolError('capture_unsafe', `the target is not capture-safe: ${why}; nothing is listed`);
    }
    const elements = shot.elements.map((element) => ({
      ref: session.refs.refFor(element),
      role: element.role,
      label: element.label,
      ops: [...element.ops],
    }));
    await session.recordCall('demo.snapshot', { ok: true });
    return { capture_state: 'safe' as const, elements };
  });
};
