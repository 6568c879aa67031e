// The MCP tools: one per contract method, each with its name, what a model needs to know, its
// annotations, and its input and output schemas taken from the contract's schema data (never
// retyped). Adding a tool is one row here and one text rendering in render.ts.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { METHOD_DEFS } from '../contract/methods.js';
import { contractDefs } from '../contract/schema.generated.js';
import type { DemoMethod } from '../contract/types.js';

/**
 * MCP tool name of each method. The MCP specification allows dots in tool names, but Claude
 * Desktop, Copilot CLI and OpenAI's function calling refuse a whole tool list when a name does
 * not match `^[a-zA-Z0-9_-]{1,64}$`; the underscore keeps each name valid everywhere.
 */
export const TOOL_NAMES = {
  'demo.request': 'demo_request',
  'demo.apps': 'demo_apps',
  'demo.snapshot': 'demo_snapshot',
  'demo.act': 'demo_act',
  'demo.batch': 'demo_batch',
  'demo.end': 'demo_end',
} as const satisfies Record<DemoMethod, string>;

export type ToolName = (typeof TOOL_NAMES)[DemoMethod];

const REF_RULE = 'A ref is valid only in the session whose snapshot gave it; after the page changes, take a new snapshot.';
const UNSAFE_RULE =
  'Error capture_unsafe means the page is in a state that must not be recorded (for example a private panel is open): nothing was done; wait, then take a new snapshot.';

/** What each tool tells a model, beside its schemas. */
const TOOL_TEXT: Record<DemoMethod, { title: string; description: string; annotations: Tool['annotations'] }> = {
  'demo.request': {
    title: 'Ask the person for a demo session',
    description: [
      "Asks the person at this computer to let you drive an app to record a demo. CutRight shows them a consent dialog in its own window; only they can answer it. This call waits for their answer, up to 600 s (progress notifications are sent while it waits).",
      'Allow returns a session and its token, which every other tool except demo_apps takes. Deny is the error consent_denied: no session exists; do not ask again unless the person tells you to.',
      'Consent is per session and never remembered. Take the app id from demo_apps.',
    ].join(' '),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  'demo.apps': {
    title: 'List the demo apps',
    description: 'Lists the apps of the demo catalog (id and name): the apps demo_request can ask for. Needs no session.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  'demo.snapshot': {
    title: "Read the app's elements",
    description: [
      "Lists the target app's elements that you can act on: ref, role, label and the ops each accepts.",
      REF_RULE,
      UNSAFE_RULE,
      'Error not_armed (retryable) means the session is still starting: try again in a moment.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  'demo.act': {
    title: 'Click, type or press on one element',
    description: [
      'Runs one op on one element from the latest snapshot: click; type (needs text); press (needs key, e.g. enter or cmd+s). Returns the receipt of the recorded step.',
      REF_RULE,
      UNSAFE_RULE,
      'Error session_killed means the person pressed Stop demo: the session is over; do not continue.',
    ].join(' '),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  'demo.batch': {
    title: 'Run several steps in order',
    description: [
      'Runs 1 to 20 steps (ref, op, and text or key) in order; every step is checked before the first runs.',
      'A step that fails is not an error of the call: the result names failed_step (its index) and error_code, and the steps after it did not run.',
      REF_RULE,
      UNSAFE_RULE,
    ].join(' '),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  'demo.end': {
    title: 'End the session',
    description:
      'Ends the session and seals its bundle (the recorded demo); the token stops working. Returns the bundle id and its state: complete, or killed when the person had pressed Stop demo.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
};

/** One tool as the server lists it, with the contract method it calls. */
export interface DemoTool extends Tool {
  name: ToolName;
  method: DemoMethod;
}

type ObjectSchema = Tool['inputSchema'];

/** A deep, mutable copy of the contract's schema data (the generated data is deeply readonly). */
function schemaOf(node: unknown): ObjectSchema {
  return structuredClone(node) as ObjectSchema;
}

export const DEMO_TOOLS: readonly DemoTool[] = (Object.entries(METHOD_DEFS) as [DemoMethod, keyof typeof contractDefs & string][]).map(
  ([method, def]) => {
    const shapes = contractDefs[def] as { params: unknown; result: unknown };
    const text = TOOL_TEXT[method];
    return {
      name: TOOL_NAMES[method],
      method,
      title: text.title,
      description: text.description,
      inputSchema: schemaOf(shapes.params),
      outputSchema: schemaOf(shapes.result),
      annotations: { title: text.title, ...text.annotations },
    };
  },
);

const TOOLS_BY_NAME = new Map<string, DemoTool>(DEMO_TOOLS.map((tool) => [tool.name, tool]));

export function toolNamed(name: string): DemoTool | undefined {
  return TOOLS_BY_NAME.get(name);
}

/** The tool list as MCP's tools/list returns it (without the method each row calls). */
export function listedTools(): Tool[] {
  return DEMO_TOOLS.map(({ method: _method, ...tool }) => tool);
}

/** How the server introduces itself to a model (MCP's `instructions`). */
export const SERVER_INSTRUCTIONS = [
  'CutRight lets you drive an app on this computer to record a demo, only with the consent of the person at it.',
  'The usual flow: demo_apps → demo_request (waits for the person to answer in CutRight) → demo_snapshot → demo_act or demo_batch → demo_snapshot again after the page changes → demo_end.',
  'The person can press Stop demo at any moment; later calls then fail with session_killed and you must stop.',
  'Errors carry the contract code and whether repeating the same call may pass (retryable).',
].join(' ');
