// Ajv (draft 2020-12) validators for every method's params and result, shared by the host
// and the client so both sides judge a message by the same schema.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { ToolError } from './errors.js';
import { METHOD_DEFS } from './methods.js';
import type { DemoMethod, DemoMethods, Step } from './types.js';

const require = createRequire(import.meta.url);
const schema = require('./agent-demo-v1.schema.json') as { $id: string };

const ajv = new Ajv2020({ allErrors: false, allowUnionTypes: true, strict: true });
ajv.addSchema(schema);

function compile(pointer: string): ValidateFunction {
  const fn = ajv.getSchema(`${schema.$id}#/$defs/${pointer}`);
  if (!fn) throw new Error(`contract schema has no $defs/${pointer}`);
  return fn;
}

const paramValidators = new Map<DemoMethod, ValidateFunction>();
const resultValidators = new Map<DemoMethod, ValidateFunction>();
for (const [method, def] of Object.entries(METHOD_DEFS) as [DemoMethod, string][]) {
  paramValidators.set(method, compile(`${def}/params`));
  resultValidators.set(method, compile(`${def}/result`));
}

/** One Ajv error as a short sentence naming the field, e.g. `params.steps must NOT have more than 20 items`. */
export function describeSchemaError(error: ErrorObject, root: string): string {
  const where = root + error.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
  if (error.keyword === 'required') {
    return `${where} is missing required field "${String(error.params['missingProperty'])}"`;
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return `${where} must be one of ${allowed}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

/** Rules the contract states in prose that the schema cannot: `type` needs `text`, `press` needs `key`. */
function stepRuleViolation(step: Pick<Step, 'op' | 'text' | 'key'>, where: string): string | undefined {
  if (step.op === 'type' && step.text === undefined) return `${where} has op "type" but no "text"`;
  if (step.op === 'press' && step.key === undefined) return `${where} has op "press" but no "key"`;
  return undefined;
}

/**
 * Checks params against the contract (schema plus the prose rules). Returns the params typed,
 * or throws `invalid_arguments` naming the first field that is wrong. Batch steps are all
 * checked here, before any of them runs.
 */
export function validateParams<M extends DemoMethod>(method: M, params: unknown): DemoMethods[M]['params'] {
  const validate = paramValidators.get(method);
  if (!validate) throw new ToolError('invalid_arguments', `unknown method ${method}`);
  if (!validate(params)) {
    const first = validate.errors?.[0];
    throw new ToolError('invalid_arguments', first ? describeSchemaError(first, 'params') : 'params are invalid');
  }
  if (method === 'demo.act') {
    const problem = stepRuleViolation(params as DemoMethods['demo.act']['params'], 'params');
    if (problem) throw new ToolError('invalid_arguments', problem);
  }
  if (method === 'demo.batch') {
    const { steps } = params as DemoMethods['demo.batch']['params'];
    steps.forEach((step, index) => {
      const problem = stepRuleViolation(step, `params.steps[${index}]`);
      if (problem) throw new ToolError('invalid_arguments', problem);
    });
  }
  return params as DemoMethods[M]['params'];
}

/** Checks a result against the contract; returns a message naming the problem, or undefined when it conforms. */
export function resultProblem(method: DemoMethod, result: unknown): string | undefined {
  const validate = resultValidators.get(method);
  if (!validate) return `unknown method ${method}`;
  if (validate(result)) return undefined;
  const first = validate.errors?.[0];
  return first ? describeSchemaError(first, 'result') : 'result is invalid';
}

export function isResultOf<M extends DemoMethod>(method: M, result: unknown): result is DemoMethods[M]['result'] {
  return resultProblem(method, result) === undefined;
}
