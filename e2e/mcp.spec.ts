// cutright-mcp end to end: the SDK's own Client over a real stdio pipe to the real
// `cutright-mcp`, against the real host, with consent answered and Stop demo pressed in the
// real UI (issue: an MCP front door).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleList, expect, startHost, test, type RunningHost } from './host-fixture.js';
import { FIXTURE, consentDialog, stopDemo } from './ui-helpers.js';

const root = path.resolve(import.meta.dirname, '..');
const contract = JSON.parse(readFileSync(path.join(root, 'src', 'contract', 'agent-demo-v1.schema.json'), 'utf8')) as { $defs: Record<string, unknown> };

interface Element {
  ref: string;
  role: string;
  label: string;
  ops: string[];
}

/** Starts `cutright-mcp --socket <the host's>` as an MCP client does, and connects the SDK's Client to it. */
async function mcpClient(host: Pick<RunningHost, 'socket'>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'bin', 'cutright-mcp.js'), '--socket', host.socket],
    cwd: root,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(transport);
  // listTools also lets the Client check every later structuredContent against its outputSchema.
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(result)}`);
  return first.text;
}

function errorOf(result: CallToolResult): { code: string; message: string; retryable: boolean } {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return (JSON.parse(textOf(result)) as { error: { code: string; message: string; retryable: boolean } }).error;
}

function ok(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  return result.structuredContent!;
}

/** Snapshots through demo_snapshot until the session is armed (calls answer not_armed while it arms). */
async function snapshotWhenArmed(client: Client, token: string): Promise<{ elements: Element[]; text: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const result = await call(client, 'demo_snapshot', { token });
    if (!result.isError) return { elements: ok(result)['elements'] as Element[], text: textOf(result) };
    if (errorOf(result).code !== 'not_armed' || Date.now() > deadline) throw new Error(`snapshot failed: ${textOf(result)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function find(elements: Element[], role: string, label: string): Element {
  const element = elements.find((e) => e.role === role && e.label === label);
  if (!element) throw new Error(`no ${role} "${label}" in ${JSON.stringify(elements)}`);
  return element;
}

/** The schema node with every `#/$defs/...` reference replaced by what it points at. */
function resolveRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolveRefs);
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return resolveRefs(contract.$defs[ref.replace('#/$defs/', '')]);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value)]));
}

test("lists the six tools with the contract's params and results as their schemas", async ({ host }) => {
  const client = await mcpClient(host);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['demo_request', 'demo_apps', 'demo_snapshot', 'demo_act', 'demo_batch', 'demo_end']);
  for (const tool of tools) {
    const def = contract.$defs[tool.name.replace('demo_', '')] as { params: unknown; result: unknown };
    expect(tool.inputSchema, tool.name).toEqual(resolveRefs(def.params));
    expect(tool.outputSchema, tool.name).toEqual(resolveRefs(def.result));
    expect(tool.description, tool.name).toBeTruthy();
  }
  expect(tools.find((tool) => tool.name === 'demo_apps')?.annotations).toMatchObject({ readOnlyHint: true });
  expect(tools.find((tool) => tool.name === 'demo_snapshot')?.annotations).toMatchObject({ readOnlyHint: true });
  await client.close();
});

test('a session through MCP: apps, request, Allow, snapshot, type and click, a batch that stops at a step, end complete', async ({ host, consentSurface, killSurface }) => {
  const client = await mcpClient(host);
  const apps = await call(client, 'demo_apps', {});
  expect(ok(apps)['apps']).toContainEqual({ id: FIXTURE, name: 'Demo Fixture' });
  expect(textOf(apps)).toContain(`${FIXTURE} "Demo Fixture"`);

  const request = call(client, 'demo_request', { app: FIXTURE, agent_name: 'mcp agent' });
  const dialog = consentDialog(await consentSurface());
  await expect(dialog).toContainText('mcp agent');
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  const granted = ok(await request);
  expect(granted).toEqual({ session: expect.any(String), token: expect.any(String), app: FIXTURE });
  const token = granted['token'] as string;
  await expect(stopDemo(await killSurface())).toBeVisible();

  const snapshot = await snapshotWhenArmed(client, token);
  const name = find(snapshot.elements, 'textbox', 'Name');
  expect(snapshot.text.split('\n')).toContain(`${name.ref} textbox "Name" [${name.ops.join(',')}]`);
  const typed = await call(client, 'demo_act', { token, ref: name.ref, op: 'type', text: 'Ada' });
  expect(ok(typed)).toEqual({ receipt_id: expect.any(String) });
  ok(await call(client, 'demo_act', { token, ref: find(snapshot.elements, 'button', 'Submit').ref, op: 'click' }));
  const greeted = await snapshotWhenArmed(client, token);
  expect(greeted.elements.map((e) => e.label)).toContain('Hello, Ada!');

  // Go private makes the page unsafe to capture: the step after it fails, and the batch says so.
  const batch = await call(client, 'demo_batch', {
    token,
    steps: [
      { ref: find(greeted.elements, 'checkbox', 'Subscribe').ref, op: 'click' },
      { ref: find(greeted.elements, 'button', 'Go private').ref, op: 'click' },
      { ref: find(greeted.elements, 'button', 'Submit').ref, op: 'click' },
    ],
  });
  expect(ok(batch)).toMatchObject({ completed: 2, failed_step: 2, error_code: 'capture_unsafe' });
  expect(textOf(batch)).toMatch(/step 2 failed with capture_unsafe/);
  expect(errorOf(await call(client, 'demo_snapshot', { token }))).toMatchObject({ code: 'capture_unsafe', retryable: false });

  const ended = await call(client, 'demo_end', { token });
  expect(ok(ended)).toEqual({ ended: true, bundle_id: expect.any(String), bundle_state: 'complete' });
  expect(errorOf(await call(client, 'demo_snapshot', { token })).code).toBe('session_ended');
  expect(bundleList(host)).toEqual([expect.objectContaining({ bundleId: ok(ended)['bundle_id'], state: 'complete', steps: 4 })]);
  await client.close();
});

test('Deny is consent_denied, and Stop demo makes the next call session_killed', async ({ host, ui, consentSurface, killSurface }) => {
  const client = await mcpClient(host);
  const denied = call(client, 'demo_request', { app: FIXTURE, agent_name: 'denied mcp agent' });
  await consentDialog(await consentSurface()).getByRole('button', { name: 'Deny', exact: true }).click();
  expect(errorOf(await denied)).toMatchObject({ code: 'consent_denied', retryable: false });

  const request = call(client, 'demo_request', { app: FIXTURE, agent_name: 'killed mcp agent' });
  await consentDialog(await consentSurface()).getByRole('button', { name: 'Allow', exact: true }).click();
  const token = ok(await request)['token'] as string;
  const { elements } = await snapshotWhenArmed(client, token);
  await stopDemo(await killSurface()).click();
  await expect(stopDemo(ui)).toHaveCount(0);
  const next = await call(client, 'demo_act', { token, ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'more' });
  expect(errorOf(next)).toMatchObject({ code: 'session_killed', retryable: false });
  expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: 'kill control' })]);
  await client.close();
});

test('a cancelled demo_request removes the dialog, and no session exists', async ({ host, ui, consentSurface }) => {
  const client = await mcpClient(host);
  const cancel = new AbortController();
  const request = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE, agent_name: 'cancelling agent' } }, undefined, { signal: cancel.signal });
  const surface = await consentSurface();
  await expect(consentDialog(surface)).toContainText('cancelling agent');
  cancel.abort('the agent gave up');
  await expect(request).rejects.toThrow(/gave up/);
  await expect(consentDialog(surface)).toHaveCount(0);
  await expect(stopDemo(ui)).toHaveCount(0);
  expect(bundleList(host)).toEqual([]);
  await client.close();
});

test('progress notifications come at least every 15 s while demo_request waits', async ({ host, consentSurface }) => {
  test.setTimeout(90_000);
  const client = await mcpClient(host);
  const progress: (Progress & { at: number })[] = [];
  // The Client's own timeout is 15 s, reset by each progress notification: without them the call fails.
  const request = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE, agent_name: 'patient agent' } }, undefined, {
    timeout: 15_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => progress.push({ ...p, at: Date.now() }),
  });
  const dialog = consentDialog(await consentSurface());
  await expect(dialog).toContainText('patient agent');
  const asked = Date.now();
  await expect.poll(() => progress.length, { timeout: 40_000 }).toBeGreaterThanOrEqual(4);
  expect(Date.now() - asked).toBeGreaterThan(25_000);
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(errorOf((await request) as CallToolResult).code).toBe('consent_denied');
  const gaps = progress.slice(1).map((p, i) => p.at - progress[i]!.at);
  for (const gap of gaps) expect(gap).toBeLessThan(15_000);
  expect(progress.every((p) => p.total === 600)).toBe(true);
  await client.close();
});

test('the host stopped: service_unavailable; the host back on the same socket: the same cutright-mcp succeeds', async () => {
  const first = await startHost();
  const client = await mcpClient(first);
  ok(await call(client, 'demo_apps', {}));
  expect(await first.stop()).toBe(0);

  const gone = errorOf(await call(client, 'demo_apps', {}));
  expect(gone).toMatchObject({ code: 'service_unavailable', retryable: true });
  expect(gone.message).toContain(`no CutRight host is listening at ${first.socket}`);
  expect(gone.message).toContain('cutright-mcp keeps running');

  const second = await startHost([], {}, first.dataDir);
  expect(second.socket).toBe(first.socket);
  try {
    expect(ok(await call(client, 'demo_apps', {}))['apps']).toContainEqual({ id: FIXTURE, name: 'Demo Fixture' });
  } finally {
    await client.close();
    expect(await second.stop()).toBe(0);
  }
});

test("the MCP Inspector's command-line mode lists the tools", async ({ host }) => {
  test.setTimeout(120_000); // two Node programs start, and the Inspector's CLI is slow to load on a busy machine
  // inspector-cli resolves its own package.json through the working folder's parent (a quirk
  // of its 1.0.3): run it from a folder of this project, whose parent holds package.json.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js'), '--cli', process.execPath, path.join(root, 'bin', 'cutright-mcp.js'), '--socket', host.socket, '--method', 'tools/list'],
    { cwd: path.join(root, 'bin'), timeout: 90_000 },
  );
  const listed = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { tools: { name: string }[] };
  expect(listed.tools.map((tool) => tool.name)).toEqual(['demo_request', 'demo_apps', 'demo_snapshot', 'demo_act', 'demo_batch', 'demo_end']);
});
