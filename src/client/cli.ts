// `cutright-ctl demo <tool> [key=value ... | JSON object]` (HOST-SPEC section 7). Output is
// for agents: one JSON line on stdout per call, the result (exit 0) or {"error":...} (exit 1);
// a command line it cannot read exits 2 with a message on stderr.
import { ToolError } from '../contract/errors.js';
import { METHOD_DEFS } from '../contract/methods.js';
import { contractDefs } from '../contract/schema.generated.js';
import type { DemoMethod } from '../contract/types.js';
import { SOCKET_ENV_VAR, defaultSocketPath, resolveSocketPath } from '../service/socket-path.js';
import { TEXT_KEYS, UsageError, parseToolArgs } from './args.js';
import { callOnce, checkParams, defaultTimeoutMs } from './client.js';

/** Where runCtl writes and what environment it reads (process streams in bin/cutright-ctl.js). */
export interface CtlIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

export const EXIT_OK = 0;
export const EXIT_TOOL_ERROR = 1;
export const EXIT_USAGE = 2;

const TOOL_SUMMARIES = {
  request: 'ask the person to let an agent drive an app; waits for their answer (up to 600 s)',
  apps: 'list the apps of the demo catalog',
  snapshot: "list the target's elements, with refs for act and batch (capture-safe only)",
  act: 'click, type or press on one element',
  batch: 'run 1 to 20 steps in order, stopping at the first failing one',
  end: "end the session and seal its bundle; the token stops working",
} as const satisfies Record<string, string>;

/** Rules the contract states in prose, shown with a tool's parameters. */
const TOOL_RULES: Partial<Record<Tool, string[]>> = {
  act: ['text is required when op is "type"; key is required when op is "press".'],
  batch: [
    'Each step: ref, op, and text for "type" or key for "press". Steps are all checked before any runs.',
    'A failing step is not an error: the result names failed_step and error_code.',
  ],
};

const TOOL_EXAMPLES: Record<Tool, string> = {
  request: 'cutright-ctl demo request app=<app id> agent_name="My agent"',
  apps: 'cutright-ctl demo apps',
  snapshot: 'cutright-ctl demo snapshot token=<token>',
  act: 'cutright-ctl demo act token=<token> ref=<ref> op=type text="Ada"',
  batch: 'cutright-ctl demo batch token=<token> steps=\'[{"ref":"<ref>","op":"click"}]\'',
  end: 'cutright-ctl demo end token=<token>',
};

type Tool = keyof typeof TOOL_SUMMARIES;
const TOOLS = Object.keys(TOOL_SUMMARIES) as Tool[];

function isTool(name: string): name is Tool {
  return Object.hasOwn(TOOL_SUMMARIES, name);
}

function methodOf(tool: Tool): DemoMethod {
  return `demo.${tool}`;
}

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate closest to `typed` when it is close enough to be a typo, else null. */
export function nearest(typed: string, candidates: readonly string[]): string | null {
  const bare = typed.toLowerCase().replace(/^demo\./, '');
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(bare, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : null;
}

const didYouMean = (suggestion: string | null): string => (suggestion ? `did you mean "${suggestion}"? ` : '');

/** The params schema of a tool (top level: the fields an agent gives on the command line). */
function paramsSchema(tool: Tool): SchemaNode {
  return (contractDefs[METHOD_DEFS[methodOf(tool)]] as unknown as { params: SchemaNode }).params;
}

/**
 * Every argument the tool needs and did not get, the contract's prose rules included (`type`
 * needs `text`, `press` needs `key`), and every name it does not take: all at once, so one
 * correction is enough. Null when nothing is wrong here (the contract check still follows).
 */
export function argumentProblems(tool: Tool, params: Record<string, unknown>): string | null {
  const schema = paramsSchema(tool);
  const known = Object.keys(schema.properties ?? {});
  const missing = (schema.required ?? []).filter((name) => !Object.hasOwn(params, name));
  if (tool === 'act' && params['op'] === 'type' && !Object.hasOwn(params, 'text')) missing.push('text');
  if (tool === 'act' && params['op'] === 'press' && !Object.hasOwn(params, 'key')) missing.push('key');
  const unknown = Object.keys(params).filter((name) => !known.includes(name));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`missing ${missing.length === 1 ? 'argument' : 'arguments'}: ${missing.join(', ')}`);
  for (const name of unknown) {
    const near = nearest(name, known.filter((k) => !Object.hasOwn(params, k)));
    problems.push(`unknown argument "${name}"${near ? ` (did you mean "${near}"?)` : ''}`);
  }
  if (problems.length === 0) return null;
  return `demo ${tool}: ${problems.join('; ')}. "cutright-ctl demo ${tool} --help" lists its arguments.`;
}

/** The parts of a JSON Schema node that help text shows. */
interface SchemaNode {
  type?: string | readonly string[];
  description?: string;
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  minItems?: number;
  maxItems?: number;
  items?: SchemaNode;
  oneOf?: readonly SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: readonly string[];
}

function typeText(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.oneOf) return node.oneOf.map(typeText).join(' or ');
  const type = typeof node.type === 'string' ? node.type : (node.type?.join(' or ') ?? 'any');
  if (type === 'array' && node.items) {
    const bounds =
      node.minItems !== undefined && node.maxItems !== undefined ? `, ${node.minItems} to ${node.maxItems} items` : '';
    return `array of ${typeText(node.items)}${bounds}`;
  }
  return type;
}

function fieldLines(node: SchemaNode, indent: string, markText: boolean): string[] {
  const properties = Object.entries(node.properties ?? {});
  const width = Math.max(0, ...properties.map(([name]) => name.length));
  const lines: string[] = [];
  for (const [name, field] of properties) {
    const facts = [typeText(field), node.required?.includes(name) ? 'required' : 'optional'];
    if (markText && TEXT_KEYS.has(name)) facts.push('kept verbatim');
    const description = field.description ? `. ${field.description}` : '';
    lines.push(`${indent}${name.padEnd(width)}  ${facts.join(', ')}${description}`);
    const items = field.items;
    if (items?.properties) lines.push(...fieldLines(items, `${indent}    `, false));
  }
  return lines;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The top-level usage: the command, its options and the tools. */
export function mainHelp(env: NodeJS.ProcessEnv = process.env): string {
  const width = Math.max(...TOOLS.map((t) => t.length));
  return [
    'Usage: cutright-ctl [--socket PATH] demo <tool> [key=value ... | JSON object]',
    '',
    'Drives an app through the CutRight host, with the consent of the person at the computer.',
    '',
    'Tools:',
    ...TOOLS.map((tool) => `  ${tool.padEnd(width)}  ${TOOL_SUMMARIES[tool]}`),
    '',
    'Arguments: one JSON object, or key=value pairs. Values parse as JSON when they are JSON,',
    `except ${[...TEXT_KEYS].join(', ')}, which are kept verbatim (text=1e3 types "1e3").`,
    '',
    'Options:',
    `  --socket PATH  the host's socket (default: $${SOCKET_ENV_VAR}, else ${defaultSocketPath(env)})`,
    '  --help         this text; "cutright-ctl demo <tool> --help" lists a tool\'s parameters',
    '',
    'Output: one JSON line on stdout: the result (exit 0), or {"error":{"code","message","retryable"}}',
    '(exit 1). A command line that cannot be read exits 2 with a message on stderr.',
    '',
  ].join('\n');
}

/** One tool's parameters from the contract schema: names, types, required, descriptions, enums. */
export function toolHelp(tool: Tool): string {
  const method = methodOf(tool);
  const def = contractDefs[METHOD_DEFS[method]] as unknown as { params: SchemaNode; result: SchemaNode };
  const params = fieldLines(def.params, '  ', true);
  const resultFields = Object.keys(def.result.properties ?? {});
  return [
    `Usage: cutright-ctl [--socket PATH] demo ${tool} [key=value ... | JSON object]`,
    '',
    `${capitalize(TOOL_SUMMARIES[tool])} (${method}, timeout ${formatDuration(defaultTimeoutMs(method))}).`,
    '',
    'Parameters:',
    ...(params.length > 0 ? params : ['  none']),
    ...(TOOL_RULES[tool] ? ['', ...TOOL_RULES[tool]] : []),
    '',
    `Result: {${resultFields.join(', ')}}`,
    '',
    'Example:',
    `  ${TOOL_EXAMPLES[tool]}`,
    '',
  ].join('\n');
}

interface Invocation {
  socket: string | undefined;
  tool: Tool;
  args: string[];
}

type Parsed = { kind: 'help'; text: string } | { kind: 'call'; invocation: Invocation };

function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): Parsed {
  let socket: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help', text: mainHelp(env) };
    if (arg === '--socket' || arg.startsWith('--socket=')) {
      const value = arg === '--socket' ? argv[++i] : arg.slice('--socket='.length);
      if (value === undefined || value === '') throw new UsageError('--socket needs a path');
      socket = value;
      continue;
    }
    if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    break;
  }
  const command = argv[i];
  if (command === undefined) throw new UsageError('missing command: cutright-ctl demo <tool> ...');
  if (command !== 'demo') throw new UsageError(`unknown command "${command}": ${didYouMean(nearest(command, ['demo']))}the command is "demo"`);
  const tool = argv[i + 1];
  if (tool === '--help' || tool === '-h') return { kind: 'help', text: mainHelp(env) };
  if (tool === undefined) throw new UsageError(`demo needs a tool: one of ${TOOLS.join(', ')}`);
  if (!isTool(tool)) throw new UsageError(`unknown tool "${tool}": ${didYouMean(nearest(tool, TOOLS))}expected one of ${TOOLS.join(', ')}`);
  const args = argv.slice(i + 2);
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help', text: toolHelp(tool) };
  const option = args.find((arg) => arg.startsWith('--'));
  if (option !== undefined) {
    throw new UsageError(`options such as ${option} go before "demo": cutright-ctl [--socket PATH] demo ${tool} ...`);
  }
  return { kind: 'call', invocation: { socket, tool, args } };
}

/**
 * Runs the command line and returns the exit code: 0 with the result on stdout, 1 with
 * {"error":{code,message,retryable}} on stdout, 2 for a command line it cannot read (stderr).
 */
export async function runCtl(argv: string[], io: CtlIo): Promise<number> {
  let invocation: Invocation;
  let params: Record<string, unknown>;
  try {
    const parsed = parseCommandLine(argv, io.env);
    if (parsed.kind === 'help') {
      io.stdout.write(parsed.text);
      return EXIT_OK;
    }
    invocation = parsed.invocation;
    params = parseToolArgs(invocation.args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const tool = argv.find(isTool);
    const hint = tool ? `cutright-ctl demo ${tool} --help` : 'cutright-ctl --help';
    io.stderr.write(`cutright-ctl: ${error.message}\nRun "${hint}" for usage.\n`);
    return EXIT_USAGE;
  }

  const method = methodOf(invocation.tool);
  try {
    // Checked before connecting: a batch of 0 or 21 steps never reaches the host.
    const problems = argumentProblems(invocation.tool, params);
    if (problems) throw new ToolError('invalid_arguments', problems);
    const checked = checkParams(method, params);
    const result = await callOnce(method, checked, { socketPath: resolveSocketPath(invocation.socket, io.env) });
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    io.stdout.write(`${JSON.stringify({ error: error.toJSON() })}\n`);
    return EXIT_TOOL_ERROR;
  }
}
