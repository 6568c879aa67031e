// Short text renderings of each result, for a model to read cheaply beside the structured
// result (a snapshot as one `ref role "label" [ops]` line per element).
import type { ToolError } from '../contract/errors.js';
import type { DemoMethod, DemoMethods } from '../contract/types.js';

type Renderers = { [M in DemoMethod]: (result: DemoMethods[M]['result']) => string };

const RENDERERS: Renderers = {
  'demo.request': (r) => `Allowed: session ${r.session} for app ${r.app}. Token (pass it to every later call): ${r.token}`,
  'demo.apps': (r) => (r.apps.length === 0 ? 'No app is in the demo catalog.' : r.apps.map((app) => `${app.id} ${JSON.stringify(app.name)}`).join('\n')),
  'demo.snapshot': (r) =>
    r.elements.length === 0
      ? 'Capture-safe; no element can be acted on.'
      : r.elements.map((e) => `${e.ref} ${e.role} ${JSON.stringify(e.label)} [${e.ops.join(',')}]`).join('\n'),
  'demo.act': (r) => `Done; receipt ${r.receipt_id}.`,
  'demo.batch': (r) => {
    const receipts = r.results.map((step) => step.receipt_id).join(', ');
    const ran = `${r.completed} step${r.completed === 1 ? '' : 's'} completed${receipts ? ` (receipts ${receipts})` : ''}`;
    return r.failed_step === null ? `${ran}.` : `${ran}; step ${r.failed_step} failed with ${r.error_code ?? 'an unnamed error'} and the steps after it did not run.`;
  },
  'demo.end': (r) => `Session ended; bundle ${r.bundle_id} sealed ${r.bundle_state}.`,
};

export function renderResult<M extends DemoMethod>(method: M, result: DemoMethods[M]['result']): string {
  return (RENDERERS[method] as (result: DemoMethods[M]['result']) => string)(result);
}

/** A tool error as text: the same `{"error":{code,message,retryable}}` object cutright-ctl prints. */
export function renderError(error: ToolError): string {
  return JSON.stringify({ error: error.toJSON() });
}
