// demo.act: one step; its receipt is durable in the bundle before the answer.
import type { MethodHandler } from './types.js';
import { runStep } from './steps.js';

export const act: MethodHandler<'demo.act'> = async (params, host) => {
  const session = host.sessionFor(params.token);
  const { token: _token, ...step } = params;
  // A receipt is its own record of a successful act; failures are recorded as calls.
  return session.run('demo.act', async (work) => ({ receipt_id: await runStep(session, work, step, 'params') }));
};
