import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { DemoClient, callOnce, checkResult, defaultTimeoutMs } from './client.js';
import { startScriptedPeer, type PeerScript, type ScriptedPeer } from './scripted-peer.test-support.js';

const TOKEN = 'tok-secret-123';
const SAFE_SNAPSHOT = {
  capture_state: 'safe',
  elements: [{ ref: 'e1', role: 'textbox', label: 'Name', ops: ['click', 'type'] }],
};

let peer: ScriptedPeer | undefined;
let client: DemoClient | undefined;

afterEach(async () => {
  await client?.close();
  await peer?.close();
  client = undefined;
  peer = undefined;
});

async function connectTo(script: PeerScript): Promise<DemoClient> {
  peer = await startScriptedPeer(script);
  client = await DemoClient.connect(peer.socketPath);
  return client;
}

/** Awaits a rejection and returns it as a ToolError (failing the test when it is something else). */
async function toolError(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('DemoClient over a real Unix socket', () => {
  it('returns a conforming result and sends a JSON-RPC 2.0 request', async () => {
    const c = await connectTo((req, conn) => conn.result(req, SAFE_SNAPSHOT));
    await expect(c.call('demo.snapshot', { token: TOKEN })).resolves.toEqual(SAFE_SNAPSHOT);
    expect(peer?.requests).toEqual([{ jsonrpc: '2.0', id: 1, method: 'demo.snapshot', params: { token: TOKEN } }]);
  });

  it('passes a host error through with its data.code, message and retryable', async () => {
    const c = await connectTo((req, conn) => conn.error(req, 'not_armed', 'the session is arming', true));
    const error = await toolError(c.call('demo.snapshot', { token: TOKEN }));
    expect(error.toJSON()).toEqual({ code: 'not_armed', message: 'the session is arming', retryable: true });
  });

  it('passes a code unknown to the contract through unchanged', async () => {
    const c = await connectTo((req, conn) => conn.error(req, 'not_allowed', 'the daemon refused', false));
    const error = await toolError(c.call('demo.apps', {}));
    expect(error.code).toBe('not_allowed');
    expect(error.message).toBe('the daemon refused');
  });

  it('turns an error without a data.code string into malformed_response', async () => {
    const c = await connectTo((req, conn) => conn.send({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'oops' } }));
    const error = await toolError(c.call('demo.apps', {}));
    expect(error.code).toBe('malformed_response');
    expect(error.message).toMatch(/data\.code/);
  });

  it('turns a result the contract does not allow into malformed_response naming the problem', async () => {
    const c = await connectTo((req, conn) => conn.result(req, { receipt: 'r1' }));
    const error = await toolError(c.call('demo.act', { token: TOKEN, ref: 'e1', op: 'click' }));
    expect(error.code).toBe('malformed_response');
    expect(error.message).toContain('result is missing required field "receipt_id"');
  });

  it('turns a message with both result and error into malformed_response', async () => {
    const c = await connectTo((req, conn) =>
      conn.send({ jsonrpc: '2.0', id: req.id, result: { apps: [] }, error: { code: -32000, message: 'x', data: { code: 'x' } } }),
    );
    expect((await toolError(c.call('demo.apps', {}))).code).toBe('malformed_response');
  });

  it('fails closed on a snapshot that is not capture-safe: capture_unsafe, no elements', async () => {
    const c = await connectTo((req, conn) => conn.result(req, { ...SAFE_SNAPSHOT, capture_state: 'unsafe' }));
    const error = await toolError(c.call('demo.snapshot', { token: TOKEN }));
    expect(error.code).toBe('capture_unsafe');
    expect(error.message).toContain('"unsafe"');
    expect(JSON.stringify(error.toJSON())).not.toContain('Name');
  });

  it('treats a snapshot without capture_state as capture_unsafe too', () => {
    expect(() => checkResult('demo.snapshot', { elements: [] })).toThrow(expect.objectContaining({ code: 'capture_unsafe' }));
    expect(() => checkResult('demo.snapshot', 'safe')).toThrow(expect.objectContaining({ code: 'malformed_response' }));
  });

  it('matches answers that come out of order to their calls', async () => {
    const held: Array<() => void> = [];
    const c = await connectTo((req, conn) => {
      const params = req.params as { token?: string };
      if (req.method === 'demo.apps') held.push(() => conn.result(req, { apps: [{ id: 'a', name: 'A' }] }));
      else if (req.method === 'demo.snapshot') held.push(() => conn.result(req, SAFE_SNAPSHOT));
      else held.push(() => conn.error(req, 'invalid_token', `bad token ${params.token ?? ''}`));
      if (held.length === 3) held.reverse().forEach((answer) => answer());
    });
    const [apps, snapshot, end] = await Promise.allSettled([
      c.call('demo.apps', {}),
      c.call('demo.snapshot', { token: TOKEN }),
      c.call('demo.end', { token: 'other' }),
    ]);
    expect(apps).toEqual({ status: 'fulfilled', value: { apps: [{ id: 'a', name: 'A' }] } });
    expect(snapshot).toEqual({ status: 'fulfilled', value: SAFE_SNAPSHOT });
    expect(end.status === 'rejected' && (end.reason as ToolError).code).toBe('invalid_token');
    expect(peer?.requests.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('times out with service_unavailable, and drops the late answer quietly', async () => {
    let answerLate: (() => void) | undefined;
    const c = await connectTo((req, conn) => {
      if (req.method === 'demo.snapshot') answerLate = () => conn.result(req, SAFE_SNAPSHOT);
      else conn.result(req, { apps: [] });
    });
    const error = await toolError(c.call('demo.snapshot', { token: TOKEN }, { timeoutMs: 50 }));
    expect(error.code).toBe('service_unavailable');
    expect(error.message).toContain('no answer to demo.snapshot');
    expect(error.message).toContain('within 50 ms');
    expect(error.retryable).toBe(true);
    answerLate?.();
    // The connection is still usable: the late answer was not taken for an unasked message.
    await expect(c.call('demo.apps', {})).resolves.toEqual({ apps: [] });
  });

  it('marks a lost act as not retryable: it may have run', async () => {
    const c = await connectTo(() => {});
    const error = await toolError(c.call('demo.act', { token: TOKEN, ref: 'e1', op: 'click' }, { timeoutMs: 30 }));
    expect(error.code).toBe('service_unavailable');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('may have run');
  });

  it('fails every call in flight with service_unavailable when the host closes the connection', async () => {
    const c = await connectTo((_req, conn) => {
      if (peer?.requests.length === 2) conn.end();
    });
    const results = await Promise.allSettled([c.call('demo.apps', {}), c.call('demo.end', { token: TOKEN })]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as ToolError;
      expect(reason.code).toBe('service_unavailable');
      expect(reason.message).toContain('closed the connection');
    }
    const later = await toolError(c.call('demo.apps', {}));
    expect(later.code).toBe('service_unavailable');
  });

  it('fails every call in flight with malformed_response on a line that is not JSON, and closes', async () => {
    const c = await connectTo((_req, conn) => {
      if (peer?.requests.length === 2) conn.sendRaw('this is not json\n');
    });
    const results = await Promise.allSettled([c.call('demo.apps', {}), c.call('demo.snapshot', { token: TOKEN })]);
    for (const result of results) {
      const reason = (result as PromiseRejectedResult).reason as ToolError;
      expect(reason.code).toBe('malformed_response');
      expect(reason.message).toContain('not JSON');
    }
    expect(c.closed).toBe(true);
  });

  it('treats an answer to an id no call has as malformed_response', async () => {
    const c = await connectTo((_req, conn) => conn.send({ jsonrpc: '2.0', id: 999, result: { apps: [] } }));
    const error = await toolError(c.call('demo.apps', {}));
    expect(error.code).toBe('malformed_response');
    expect(error.message).toContain('id 999');
  });

  it('fails the call in flight with the host error when it answers with id null', async () => {
    const c = await connectTo((_req, conn) =>
      conn.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'line too long', data: { code: 'invalid_arguments', retryable: false } } }),
    );
    const error = await toolError(c.call('demo.apps', {}));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('line too long');
  });

  it('rejects with the signal reason when aborted', async () => {
    const c = await connectTo(() => {});
    const controller = new AbortController();
    const call = c.call('demo.apps', {}, { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
  });

  it('fails calls in flight when the client closes', async () => {
    const c = await connectTo(() => {});
    const call = toolError(c.call('demo.apps', {}));
    await c.close();
    expect((await call).code).toBe('service_unavailable');
  });
});

describe('refusals before anything is sent', () => {
  it('refuses a batch of 0 or 21 steps before connecting', async () => {
    peer = await startScriptedPeer((req, conn) => conn.result(req, { completed: 0, results: [], failed_step: null, error_code: null }));
    const step = { ref: 'e1', op: 'click' as const };
    for (const steps of [[], Array.from({ length: 21 }, () => step)]) {
      const error = await toolError(callOnce('demo.batch', { token: TOKEN, steps }, { socketPath: peer.socketPath }));
      expect(error.code).toBe('invalid_arguments');
      expect(error.message).toBe(`demo.batch takes 1 to 20 steps, got ${steps.length}`);
    }
    expect(peer.connections).toBe(0);
    // 20 steps is allowed and does reach the host.
    await callOnce('demo.batch', { token: TOKEN, steps: Array.from({ length: 20 }, () => step) }, { socketPath: peer.socketPath });
    expect(peer.connections).toBe(1);
  });

  it('refuses type without text, naming the field, and sends nothing', async () => {
    const c = await connectTo((req, conn) => conn.result(req, { receipt_id: 'r' }));
    const error = await toolError(c.call('demo.act', { token: TOKEN, ref: 'e1', op: 'type' }));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toBe('params has op "type" but no "text"');
    expect(peer?.requests).toEqual([]);
  });

  it('refuses a request line over 1 MiB without sending it', async () => {
    const c = await connectTo((req, conn) => conn.result(req, { receipt_id: 'r' }));
    const error = await toolError(c.call('demo.act', { token: TOKEN, ref: 'e1', op: 'type', text: 'x'.repeat(1024 * 1024) }));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('line limit');
    expect(peer?.requests).toEqual([]);
  });
});

describe('connecting', () => {
  it('is service_unavailable when no socket exists', async () => {
    const missing = path.join(os.tmpdir(), `cutright-none-${process.pid}`, 'agent-demo.sock');
    const error = await toolError(DemoClient.connect(missing));
    expect(error.toJSON()).toEqual({
      code: 'service_unavailable',
      message: `no CutRight host is listening at ${missing}: start it with \`cutright\``,
      retryable: true,
    });
  });

  it('is service_unavailable when the path is a plain file', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'cutright-file-'));
    const file = path.join(folder, 'agent-demo.sock');
    writeFileSync(file, '');
    try {
      const error = await toolError(callOnce('demo.apps', {}, { socketPath: file }));
      expect(error.code).toBe('service_unavailable');
      expect(error.message).toContain(file);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('uses the contract timeouts by default', () => {
    expect(defaultTimeoutMs('demo.request')).toBe(600_000);
    expect(defaultTimeoutMs('demo.act')).toBe(30_000);
  });
});
