// The tool table against the contract: one tool per method, names every client accepts, and
// schemas equal to the contract's JSON Schema file (its $refs resolved here, independently of
// the generated data the table reads).
import { validateToolName } from '@modelcontextprotocol/sdk/shared/toolNameValidation.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_METHODS, METHOD_DEFS } from '../contract/methods.js';
import { DEMO_TOOLS, TOOL_NAMES, listedTools, toolNamed } from './tools.js';

const contract = JSON.parse(readFileSync(new URL('../contract/agent-demo-v1.schema.json', import.meta.url), 'utf8')) as { $defs: Record<string, unknown> };

/** The node with every `#/$defs/...` reference replaced by what it points at. */
function resolveRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolveRefs);
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const [, name] = /^#\/\$defs\/(\w+)$/.exec(ref) ?? [];
    if (!name) throw new Error(`unexpected $ref ${ref}`);
    return resolveRefs(contract.$defs[name]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value)]));
}

describe('the MCP tools', () => {
  it('are one per contract method, in the contract order', () => {
    expect(DEMO_TOOLS.map((tool) => tool.method)).toEqual(DEMO_METHODS);
    expect(DEMO_TOOLS.map((tool) => tool.name)).toEqual(['demo_request', 'demo_apps', 'demo_snapshot', 'demo_act', 'demo_batch', 'demo_end']);
  });

  it('have names valid under MCP and under the stricter rule of the model APIs clients pass them to', () => {
    for (const name of Object.values(TOOL_NAMES)) {
      expect(validateToolName(name)).toEqual({ isValid: true, warnings: [] });
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it("take the contract's params as input schema and give its result as output schema", () => {
    for (const tool of listedTools()) {
      const def = METHOD_DEFS[toolNamed(tool.name)!.method];
      const shapes = contract.$defs[def] as { params: unknown; result: unknown };
      expect(tool.inputSchema, tool.name).toEqual(resolveRefs(shapes.params));
      expect(tool.outputSchema, tool.name).toEqual(resolveRefs(shapes.result));
      expect(tool).not.toHaveProperty('method');
    }
  });

  it('mark what only reads as read-only, and what acts on the app as destructive', () => {
    const hints = Object.fromEntries(listedTools().map((tool) => [tool.name, tool.annotations]));
    expect(hints['demo_apps']).toMatchObject({ readOnlyHint: true });
    expect(hints['demo_snapshot']).toMatchObject({ readOnlyHint: true });
    for (const name of ['demo_request', 'demo_act', 'demo_batch', 'demo_end']) expect(hints[name]).toMatchObject({ readOnlyHint: false });
    expect(hints['demo_act']).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(hints['demo_batch']).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(hints['demo_end']).toMatchObject({ destructiveHint: false, idempotentHint: true });
  });

  it('tell a model that request waits for a person, refs are per session, and capture_unsafe did nothing', () => {
    const text = (name: string) => toolNamed(name)!.description ?? '';
    expect(text('demo_request')).toMatch(/waits for their answer, up to 600 s/);
    for (const name of ['demo_snapshot', 'demo_act', 'demo_batch']) {
      expect(text(name)).toMatch(/valid only in the session/);
      expect(text(name)).toMatch(/capture_unsafe means the page .* must not be recorded .*nothing was done/);
    }
  });
});
