// The text renderings a model reads beside each structured result.
import { describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import type { SnapshotResult } from '../contract/types.js';
import { renderError, renderResult } from './render.js';

describe('text renderings', () => {
  it('show a snapshot as one ref role "label" [ops] line per element', () => {
    const snapshot: SnapshotResult = {
      capture_state: 'safe',
      elements: [
        { ref: 'e-1', role: 'textbox', label: 'Name', ops: ['click', 'type', 'press'] },
        { ref: 'e-2', role: 'button', label: 'Say "hi"', ops: ['click'] },
      ],
    };
    expect(renderResult('demo.snapshot', snapshot)).toBe('e-1 textbox "Name" [click,type,press]\ne-2 button "Say \\"hi\\"" [click]');
    expect(renderResult('demo.snapshot', { capture_state: 'safe', elements: [] })).toBe('Capture-safe; no element can be acted on.');
  });

  it('say where a batch stopped', () => {
    expect(renderResult('demo.batch', { completed: 2, results: [{ receipt_id: 'r-1' }, { receipt_id: 'r-2' }], failed_step: 2, error_code: 'capture_unsafe' })).toBe(
      '2 steps completed (receipts r-1, r-2); step 2 failed with capture_unsafe and the steps after it did not run.',
    );
    expect(renderResult('demo.batch', { completed: 1, results: [{ receipt_id: 'r-1' }], failed_step: null, error_code: null })).toBe('1 step completed (receipts r-1).');
  });

  it('give an error as the code, message and retryable verdict', () => {
    expect(JSON.parse(renderError(new ToolError('session_killed', 'the person pressed Stop demo')))).toEqual({
      error: { code: 'session_killed', message: 'the person pressed Stop demo', retryable: false },
    });
  });
});
