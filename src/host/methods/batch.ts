// demo.batch: the steps in order, stopping at the first failing one (HOST-SPEC section 3). The
// shape rules refused the whole batch already (service, check 2); from check 6 on, a failure
// is the step's: the steps before it ran and keep their receipts, and the answer is a success
// naming `failed_step` and `error_code`.
import { isErrorCode, ToolError } from '../../contract/errors.js';
import type { MethodHandler } from './types.js';
import { runStep } from './steps.js';

export const batch: MethodHandler<'demo.batch'> = async (params, host) => {
  const session = host.sessionFor(params.token);
  return session.run('demo.batch', async (work) => {
    const results: { receipt_id: string }[] = [];
    for (const [index, step] of params.steps.entries()) {
      try {
        results.push({ receipt_id: await runStep(session, work, step, `params.steps[${index}]`) });
      } catch (error) {
        const code = error instanceof ToolError && isErrorCode(error.code) ? error.code : 'service_unavailable';
        await session.recordCall('demo.batch', { ok: false, code }).catch(() => {});
        return { completed: results.length, results, failed_step: index, error_code: code };
      }
    }
    await session.recordCall('demo.batch', { ok: true });
    return { completed: results.length, results, failed_step: null, error_code: null };
  });
};
