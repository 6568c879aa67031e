// The MCP server against the real host core on a real socket (consent answered through the
// host's bridge, as the UI would): progress while demo_request waits, cancellation withdrawing
// the dialog, and cutright-mcp's stdio loop ending a pending request when its client leaves.
// The same behaviours over a real stdio pipe with the real UI are in e2e/mcp.spec.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { answer, startTestCore, waitFor, type TestCore } from '../host/harness.test-support.js';
import { runMcp } from './cli.js';
import { createDemoMcpServer } from './server.js';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.stop();
});

async function connectedClient(progressIntervalMs?: number): Promise<Client> {
  const server = createDemoMcpServer({ socketPath: t.core.socket.socketPath, version: 'test', progressIntervalMs });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'server.test', version: '1' });
  await client.connect(clientSide);
  return client;
}

function errorOf(result: CallToolResult): { code: string; message: string; retryable: boolean } {
  expect(result.isError).toBe(true);
  const text = result.content[0];
  if (text?.type !== 'text') throw new Error(`no text content in ${JSON.stringify(result)}`);
  return (JSON.parse(text.text) as { error: { code: string; message: string; retryable: boolean } }).error;
}

function consentOf(agent: string) {
  return () => (t.view().consent?.agentName === agent ? t.view().consent : undefined);
}

describe('cutright-mcp against the host', () => {
  it('reports progress while demo_request waits, at its interval, and stops once the person answers', async () => {
    const client = await connectedClient(100);
    const progress: { at: number; progress: number; total?: number; message?: string }[] = [];
    const call = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE_APP_ID, agent_name: 'progress agent' } }, undefined, {
      onprogress: (p) => progress.push({ at: Date.now(), ...p }),
    });
    await waitFor(consentOf('progress agent'), 'the dialog');
    await waitFor(() => (progress.length >= 4 ? true : undefined), 'four progress notifications');
    await answer(t, 'progress agent', 'deny');
    const result = (await call) as CallToolResult;
    expect(errorOf(result)).toMatchObject({ code: 'consent_denied', retryable: false });

    const seen = progress.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(progress.length, 'no progress after the answer').toBe(seen);
    for (let i = 1; i < progress.length; i += 1) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(progress[0]).toMatchObject({ total: 600, message: expect.stringMatching(/waiting for the person to answer the consent dialog in CutRight/) });
    await client.close();
  });

  it('sends no progress for a call that asked for none', async () => {
    const client = await connectedClient(50);
    const notifications: unknown[] = [];
    client.fallbackNotificationHandler = async (n) => void notifications.push(n);
    const call = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE_APP_ID, agent_name: 'quiet agent' } });
    await waitFor(consentOf('quiet agent'), 'the dialog');
    await new Promise((r) => setTimeout(r, 200));
    await answer(t, 'quiet agent', 'deny');
    await call;
    expect(notifications).toEqual([]);
    await client.close();
  });

  it('a cancelled demo_request withdraws the dialog: no session, and the next request is asked', async () => {
    const client = await connectedClient();
    const cancel = new AbortController();
    const call = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE_APP_ID, agent_name: 'cancelled agent' } }, undefined, { signal: cancel.signal });
    await waitFor(consentOf('cancelled agent'), 'the dialog');
    cancel.abort('the user changed their mind');
    await expect(call).rejects.toThrow(/changed their mind/);
    await waitFor(() => (t.view().consent === null ? true : undefined), 'the dialog to be withdrawn');
    expect(t.view().live).toEqual([]);

    const next = client.callTool({ name: 'demo_request', arguments: { app: FIXTURE_APP_ID, agent_name: 'next agent' } });
    await answer(t, 'next agent', 'deny');
    expect(errorOf((await next) as CallToolResult).code).toBe('consent_denied');
    await client.close();
  });

  it('cutright-mcp over stdio: its client closing stdin withdraws a pending dialog and ends the server', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
        buffered = buffered.slice(end + 1);
      }
    });
    const stderr: string[] = [];
    const running = runMcp(['--socket', t.core.socket.socketPath], { stdin, stdout, stderr: { write: (s: string) => stderr.push(s) }, env: {} }, new PassThrough());
    const send = (message: unknown): boolean => stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitFor(() => lines.find((l) => l['id'] === 1), 'the initialize answer');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'demo_request', arguments: { app: FIXTURE_APP_ID, agent_name: 'leaving agent' } } });
    await waitFor(consentOf('leaving agent'), 'the dialog');

    stdin.end();
    expect(await running).toBe(0);
    await waitFor(() => (t.view().consent === null ? true : undefined), 'the dialog to be withdrawn');
    expect(t.view().live).toEqual([]);
    expect(lines.find((l) => l['id'] === 2), 'the cancelled call is never answered').toBeUndefined();
    expect(stderr.join('')).toContain(`serving the CutRight host at ${t.core.socket.socketPath}`);
  });
});
