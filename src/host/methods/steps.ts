// One step of demo.act or demo.batch: check 6 (capture state, ref, op, gates, key), the input,
// then the durable receipt. Shared by both methods, so a step means the same in each.
import { ToolError } from '../../contract/errors.js';
import type { Step } from '../../contract/types.js';
import { parseKey } from '../../targets/keys.js';
import type { Session, SessionWork } from '../session.js';

interface CheckedStep {
  step: Step;
  nodeKey: string;
  role: string;
  label: string;
}

/** The ref is this session's, the op is listed, no gate refuses, the key is in the grammar. */
function checkStep(session: Session, step: Step, where: string): CheckedStep {
  const entry = session.refs.lookup(step.ref);
  if (!entry) throw new ToolError('invalid_arguments', `${where}: ref "${step.ref}" is not one this session issued; take a new snapshot`);
  if (!entry.ops.includes(step.op)) {
    throw new ToolError('invalid_arguments', `${where}: the element ${entry.role} "${entry.label}" does not offer "${step.op}" (it offers ${entry.ops.join(', ') || 'nothing'})`);
  }
  if (entry.secure) throw new ToolError('target_blocked', `${where}: ${entry.role} "${entry.label}" is a secure or credential field; the host never types into or reads it`);
  if (step.op === 'press' && step.key !== undefined) {
    try {
      parseKey(step.key);
    } catch (error) {
      throw new ToolError('invalid_arguments', `${where}: ${(error as Error).message}`);
    }
  }
  return { step, nodeKey: entry.nodeKey, role: entry.role, label: entry.label };
}

/**
 * Runs one step and resolves with its receipt id. The capture-safe rule is checked for this
 * very step by the driver, in the same page call that resolves the element (capture_unsafe
 * when not safe), so no extra round trip is spent on a good step; a step that fails its
 * checks asks first, since an unsafe target is capture_unsafe before any ref or gate problem.
 */
export async function runStep(session: Session, work: SessionWork, step: Step, where: string): Promise<string> {
  let checked: CheckedStep;
  try {
    checked = checkStep(session, step, where);
  } catch (error) {
    const state = await work.guard(work.driver.captureState());
    if (state.state !== 'safe') throw new ToolError('capture_unsafe', `the target is not capture-safe: ${state.reason}; refused`);
    throw error;
  }
  const input = { nodeKey: checked.nodeKey, op: step.op, ...(step.text !== undefined ? { text: step.text } : {}), ...(step.key !== undefined ? { key: step.key } : {}) };
  // The page round trip is what a kill must not wait for; once the input went out and the
  // receipt is being written, the step is done and its receipt stands.
  const outcome = await work.guard(work.driver.act(input, { role: checked.role, label: checked.label }, work.signal));
  return session.recordStep(work.driver, {
    // Where it happened, for the step's picture (the driver's hit-test, in picture pixels).
    ...(outcome?.geometry ? { place: outcome.geometry } : {}),
    point: outcome.point,
    op: step.op,
    ref: step.ref,
    role: checked.role,
    label: checked.label,
    ...(step.op === 'type' && step.text !== undefined ? { text: step.text } : {}),
    ...(step.op === 'press' && step.key !== undefined ? { key: step.key } : {}),
  });
}
