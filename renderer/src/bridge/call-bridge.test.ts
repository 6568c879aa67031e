// The renderer's proxy, derived from the bridge table: one method per call, each result
// checked against its schema before the UI sees it.
import { describe, expect, it } from 'vitest';
import { BRIDGE_CALLS, type BridgeCall } from '../../../src/ui-protocol/index.js';
import { callMethods } from './call-bridge.js';

const summary = { bundleId: 'b-1', sessionId: 's-1', appId: 'a', appName: 'A', agentName: 'agent', state: 'killed', reason: 'kill control', startedAt: 1, endedAt: 2, steps: 0 };

function answering(answers: Partial<Record<BridgeCall, unknown>>) {
  const calls: Array<[BridgeCall, unknown[]]> = [];
  const methods = callMethods(async (call, args) => {
    calls.push([call, args]);
    return answers[call];
  });
  return { methods, calls };
}

describe('callMethods', () => {
  it('offers exactly the calls of the table and carries their arguments', async () => {
    const { methods, calls } = answering({ answerConsent: null, listBundles: [summary] });
    expect(Object.keys(methods).sort()).toEqual([...BRIDGE_CALLS].sort());
    await expect(methods.answerConsent('c-1', 'allow')).resolves.toBeUndefined();
    await expect(methods.listBundles()).resolves.toEqual([summary]);
    expect(calls).toEqual([
      ['answerConsent', ['c-1', 'allow']],
      ['listBundles', []],
    ]);
  });

  it.each([
    ['a list that is not one', 'listBundles', { not: 'a list' }, /^The host answered listBundles wrongly: result must be Array/],
    ['a summary with an unknown state', 'listBundles', [{ ...summary, state: 'lost' }], /result\[0\]\.state must be \("open" \| "complete" \| "killed"\), got "lost"/],
    ['settings without demoMode', 'getSettings', { apps: [], deniedApps: [] }, /result\.demoMode is missing/],
    ['a value where nothing is promised', 'kill', 'surprise', /^The host answered kill wrongly: result must be nothing \(null\)$/],
  ] as const)('refuses %s', async (_what, call, value, message) => {
    const { methods } = answering({ [call]: value });
    const method = methods[call] as (...args: unknown[]) => Promise<unknown>;
    await expect(method(...(call === 'kill' ? ['s-1'] : []))).rejects.toThrow(message);
  });
});
