import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ToolError } from './errors.js';
import { DEMO_METHODS } from './methods.js';
import { resultProblem, validateParams } from './validate.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ToolError ? `${error.code}: ${error.message}` : String(error);
  }
  return undefined;
}

describe('contract validators', () => {
  it('the schema data file is the contract document\'s schema, verbatim', () => {
    const contractPath = new URL('../../../shared/contract/agent-demo-v1.md', import.meta.url);
    let contract: string;
    try {
      contract = readFileSync(contractPath, 'utf8');
    } catch {
      return; // shared/ sits beside the checkout in development and CI; elsewhere there is nothing to compare.
    }
    const block = /```json\n([\s\S]*?)```/.exec(contract)?.[1];
    const data = JSON.parse(readFileSync(new URL('./agent-demo-v1.schema.json', import.meta.url), 'utf8'));
    expect(data).toEqual(JSON.parse(block!));
  });

  it('knows the six methods and the thirteen error codes', () => {
    expect(DEMO_METHODS).toEqual(['demo.request', 'demo.apps', 'demo.snapshot', 'demo.act', 'demo.batch', 'demo.end']);
    expect(ERROR_CODES).toHaveLength(13);
  });

  it('accepts valid params', () => {
    expect(validateParams('demo.request', { app: 'a', agent_name: 'b' })).toEqual({ app: 'a', agent_name: 'b' });
    expect(validateParams('demo.apps', {})).toEqual({});
    expect(validateParams('demo.act', { token: 't', ref: 'r', op: 'press', key: 'enter' })).toBeTruthy();
  });

  it.each([
    ['demo.request', { app: 'a' }, /params is missing required field "agent_name"/],
    ['demo.request', { app: 1, agent_name: 'b' }, /params\.app must be string/],
    ['demo.snapshot', {}, /missing required field "token"/],
    ['demo.act', { token: 't', ref: 'r', op: 'hover' }, /params\.op must be one of "click", "type", "press"/],
    ['demo.act', { token: 't', ref: 'r', op: 'type' }, /op "type" but no "text"/],
    ['demo.act', { token: 't', ref: 'r', op: 'press' }, /op "press" but no "key"/],
    ['demo.batch', { token: 't', steps: [] }, /params\.steps must NOT have fewer than 1 items/],
    ['demo.batch', { token: 't', steps: Array.from({ length: 21 }, () => ({ ref: 'r', op: 'click' })) }, /must NOT have more than 20 items/],
    ['demo.batch', { token: 't', steps: [{ ref: 'r', op: 'click' }, { ref: 'r', op: 'type' }] }, /params\.steps\[1\] has op "type" but no "text"/],
    ['demo.batch', { token: 't', steps: [{ ref: 'r' }] }, /params\.steps\[0\] is missing required field "op"/],
    ['demo.end', 'not an object', /params must be object/],
  ] as const)('%s refuses %j', (method, params, message) => {
    expect(codeOf(() => validateParams(method, params))).toMatch(new RegExp(`^invalid_arguments: .*${message.source}`));
  });

  it('accepts batches of 1 and 20 steps', () => {
    for (const n of [1, 20]) {
      expect(() => validateParams('demo.batch', { token: 't', steps: Array.from({ length: n }, () => ({ ref: 'r', op: 'click' })) })).not.toThrow();
    }
  });

  it('judges results by the schema', () => {
    expect(resultProblem('demo.snapshot', { capture_state: 'safe', elements: [] })).toBeUndefined();
    expect(resultProblem('demo.snapshot', { capture_state: 'unknown', elements: [] })).toMatch(/result\.capture_state must be one of "safe"/);
    expect(resultProblem('demo.end', { ended: false, bundle_id: 'b', bundle_state: 'complete' })).toMatch(/result\.ended/);
    expect(resultProblem('demo.batch', { completed: 0, results: [], failed_step: 0, error_code: 'not_a_code' })).toBeDefined();
    expect(resultProblem('demo.batch', { completed: 1, results: [{ receipt_id: 'r' }], failed_step: null, error_code: null })).toBeUndefined();
  });
});
