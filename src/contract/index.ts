export * from './errors.js';
export * from './methods.js';
export type * from './types.js';
export { validateParams, resultProblem, isResultOf, describeSchemaError } from './validate.js';
export { FIXTURE_APP_ID } from './fixture-id.js';
export { END_STATES, type EndState } from './end-state.js';
