// How a session ended, spelled once: the contract's `bundle_state` of `demo.end`. The bundle's
// end record, the token registry's memory of ended sessions and the UI's bundle list all use
// this type; `complete` is the agent's own `demo.end`, `killed` everything else (the kill
// control, Demo mode off, shutdown, a crash).
import type { EndResult } from './types.js';

export type EndState = EndResult['bundle_state'];

/** Every EndState, for checks at run time (the `satisfies` keeps it exhaustive). */
export const END_STATES = ['complete', 'killed'] as const satisfies readonly EndState[];

// Fails to compile if the contract gains an end state this list does not have.
type Missing = Exclude<EndState, (typeof END_STATES)[number]>;
const exhaustive: [Missing] extends [never] ? true : Missing = true;
void exhaustive;
