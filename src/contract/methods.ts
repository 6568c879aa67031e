import type { DemoMethod } from './types.js';

/** Method name to its `$defs` key in the schema. Method names equal tool names. */
export const METHOD_DEFS = {
  'demo.request': 'request',
  'demo.apps': 'apps',
  'demo.snapshot': 'snapshot',
  'demo.act': 'act',
  'demo.batch': 'batch',
  'demo.end': 'end',
} as const satisfies Record<DemoMethod, string>;

export const DEMO_METHODS = Object.keys(METHOD_DEFS) as DemoMethod[];

export function isDemoMethod(name: unknown): name is DemoMethod {
  return typeof name === 'string' && Object.hasOwn(METHOD_DEFS, name);
}

/** Contract timeouts: demo.request waits for a person; every other call 30 s. */
export const REQUEST_TIMEOUT_MS = 600_000;
export const CALL_TIMEOUT_MS = 30_000;

/** demo.batch bounds (contract "Limits"). */
export const BATCH_MIN_STEPS = 1;
export const BATCH_MAX_STEPS = 20;

/** HOST-SPEC section 1: a line over 1 MiB is refused and the connection closed. */
export const MAX_LINE_BYTES = 1024 * 1024;
