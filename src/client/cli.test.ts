import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contractDefs } from '../contract/schema.generated.js';
import { runCtl } from './cli.js';
import { startScriptedPeer, type PeerScript, type ScriptedPeer } from './scripted-peer.test-support.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let peer: ScriptedPeer | undefined;

afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCtl(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

async function withPeer(script: PeerScript): Promise<ScriptedPeer> {
  peer = await startScriptedPeer(script);
  return peer;
}

describe('cutright-ctl calls', () => {
  it('prints the result as one JSON line and exits 0', async () => {
    const p = await withPeer((req, conn) => conn.result(req, { apps: [{ id: 'a', name: 'App' }] }));
    const out = await run(['--socket', p.socketPath, 'demo', 'apps']);
    expect(out).toEqual({ code: 0, stdout: '{"apps":[{"id":"a","name":"App"}]}\n', stderr: '' });
  });

  it('reads the socket from CUTRIGHT_SOCKET, and --socket=PATH too', async () => {
    const p = await withPeer((req, conn) => conn.result(req, { apps: [] }));
    expect((await run(['demo', 'apps'], { CUTRIGHT_SOCKET: p.socketPath })).code).toBe(0);
    expect((await run([`--socket=${p.socketPath}`, 'demo', 'apps'], { CUTRIGHT_SOCKET: '/nowhere.sock' })).code).toBe(0);
    expect(p.connections).toBe(2);
  });

  it('sends key=value pairs under the contract rules (text=1e3 stays text)', async () => {
    const p = await withPeer((req, conn) => conn.result(req, { receipt_id: 'r1' }));
    const out = await run(['--socket', p.socketPath, 'demo', 'act', 'token=123', 'ref=e1', 'op=type', 'text=1e3']);
    expect(out.stdout).toBe('{"receipt_id":"r1"}\n');
    expect(p.requests[0]?.params).toEqual({ token: '123', ref: 'e1', op: 'type', text: '1e3' });
  });

  it('prints a host error as {"error":...} on stdout and exits 1', async () => {
    const p = await withPeer((req, conn) => conn.error(req, 'invalid_token', 'unknown token', false));
    const out = await run(['--socket', p.socketPath, 'demo', 'snapshot', '{"token":"t"}']);
    expect(out).toEqual({
      code: 1,
      stdout: '{"error":{"code":"invalid_token","message":"unknown token","retryable":false}}\n',
      stderr: '',
    });
  });

  it('prints capture_unsafe for a snapshot that is not safe, with no element', async () => {
    const p = await withPeer((req, conn) =>
      conn.result(req, { capture_state: 'private', elements: [{ ref: 'e9', role: 'textbox', label: 'Secret', ops: [] }] }),
    );
    const out = await run(['--socket', p.socketPath, 'demo', 'snapshot', 'token=t']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: 'capture_unsafe', retryable: false } });
    expect(out.stdout).not.toContain('Secret');
  });

  it('prints malformed_response for an answer the contract does not allow', async () => {
    const p = await withPeer((req, conn) => conn.result(req, { ended: false, bundle_id: 'b', bundle_state: 'complete' }));
    const out = await run(['--socket', p.socketPath, 'demo', 'end', 'token=t']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: 'malformed_response' } });
  });

  it('prints service_unavailable when no host listens, exit 1', async () => {
    const missing = path.join(os.tmpdir(), `cutright-none-${process.pid}`, 'agent-demo.sock');
    const out = await run(['--socket', missing, 'demo', 'apps']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toEqual({
      error: { code: 'service_unavailable', message: `no CutRight host is listening at ${missing}: start it with \`cutright\``, retryable: true },
    });
  });

  it('refuses a batch of 21 steps with invalid_arguments before connecting', async () => {
    const p = await withPeer(() => {});
    const steps = JSON.stringify(Array.from({ length: 21 }, () => ({ ref: 'e1', op: 'click' })));
    const out = await run(['--socket', p.socketPath, 'demo', 'batch', 'token=t', `steps=${steps}`]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toEqual({
      error: { code: 'invalid_arguments', message: 'demo.batch takes 1 to 20 steps, got 21', retryable: false },
    });
    expect(p.connections).toBe(0);
  });

  it('refuses params that fail the contract with invalid_arguments, exit 1', async () => {
    const p = await withPeer(() => {});
    const out = await run(['--socket', p.socketPath, 'demo', 'act', 'token=t', 'ref=e1', 'op=press']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: 'invalid_arguments', message: expect.stringMatching(/^demo act: missing argument: key\./) } });
    const shape = await run(['--socket', p.socketPath, 'demo', 'act', 'token=t', 'ref=e1', 'op=drag']);
    expect(JSON.parse(shape.stdout)).toMatchObject({ error: { code: 'invalid_arguments', message: expect.stringContaining('op') } });
    expect(p.connections).toBe(0);
  });

  it('reports every missing argument at once, and suggests the name meant for a misspelt one', async () => {
    const p = await withPeer(() => {});
    const none = await run(['--socket', p.socketPath, 'demo', 'act']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toEqual({
      error: {
        code: 'invalid_arguments',
        message: 'demo act: missing arguments: token, ref, op. "cutright-ctl demo act --help" lists its arguments.',
        retryable: false,
      },
    });
    const typo = await run(['--socket', p.socketPath, 'demo', 'act', 'tokn=t', 'ref=e1', 'op=type']);
    expect((JSON.parse(typo.stdout) as { error: { message: string } }).error.message).toBe(
      'demo act: missing arguments: token, text; unknown argument "tokn" (did you mean "token"?). "cutright-ctl demo act --help" lists its arguments.',
    );
    expect(p.connections).toBe(0);
  });
});

describe('cutright-ctl usage errors exit 2 with a message on stderr', () => {
  it.each([
    [[], /missing command/],
    [['demo'], /demo needs a tool: one of request, apps, snapshot, act, batch, end/],
    [['demo', 'click'], /unknown tool "click": expected one of/],
    [['demo', 'snapshto'], /unknown tool "snapshto": did you mean "snapshot"\? expected one of request, apps/],
    [['demo', 'demo.snapshot'], /did you mean "snapshot"\?/],
    [['demo', 'reqest'], /did you mean "request"\?/],
    [['dmeo', 'apps'], /unknown command "dmeo": did you mean "demo"\?/],
    [['other', 'apps'], /unknown command "other"/],
    [['--socket'], /--socket needs a path/],
    [['--verbose', 'demo', 'apps'], /unknown option --verbose/],
    [['demo', 'snapshot', 'token'], /"token" is not a key=value pair/],
    [['demo', 'act', 'text=a', 'text=b'], /key "text" is given more than once/],
    [['demo', 'snapshot', '{"token":"t"}', 'ref=e1'], /either one JSON object or key=value pairs/],
    [['demo', 'snapshot', '["t"]'], /must be an object, got an array/],
    [['demo', 'apps', '--socket', '/x.sock'], /options such as --socket go before "demo"/],
  ])('%j', async (argv, message) => {
    const out = await run(argv);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/Run "cutright-ctl( demo \w+)? --help" for usage/);
  });
});

describe('cutright-ctl --help', () => {
  it('lists every tool and the socket option', async () => {
    const out = await run(['--help'], { XDG_RUNTIME_DIR: '/run/user/42' });
    expect(out.code).toBe(0);
    for (const tool of ['request', 'apps', 'snapshot', 'act', 'batch', 'end']) expect(out.stdout).toMatch(new RegExp(`^  ${tool} `, 'm'));
    expect(out.stdout).toContain('--socket PATH');
    expect(out.stdout).toContain('CUTRIGHT_SOCKET');
    expect(out.stdout).toContain('/run/user/42/rightkit/agent-demo.sock');
    expect((await run(['demo', '--help'], { XDG_RUNTIME_DIR: '/run/user/42' })).stdout).toBe(out.stdout);
  });

  it.each(['request', 'apps', 'snapshot', 'act', 'batch', 'end'] as const)('demo %s --help names each parameter from the schema', async (tool) => {
    const out = await run(['demo', tool, '--help']);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('');
    const params = contractDefs[tool].params as { properties: Record<string, unknown>; required?: readonly string[] };
    for (const name of Object.keys(params.properties)) expect(out.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    for (const name of params.required ?? []) expect(out.stdout).toMatch(new RegExp(`^  ${name} +.*required`, 'm'));
  });

  it('shows types, enum values, bounds and descriptions', async () => {
    const act = (await run(['demo', 'act', '--help'])).stdout;
    expect(act).toMatch(/^ {2}op +one of "click", "type", "press", required/m);
    expect(act).toMatch(/^ {2}token +string, required, kept verbatim\. Opaque session token from demo\.request\./m);
    expect(act).toMatch(/^ {2}text +string, optional/m);
    const batch = (await run(['demo', 'batch', '--help'])).stdout;
    expect(batch).toMatch(/^ {2}steps +array of object, 1 to 20 items, required/m);
    expect(batch).toMatch(/^ {6}key +string, optional\. Required for press, e\.g\. enter or cmd\+s\./m);
    expect((await run(['demo', 'apps', '--help'])).stdout).toMatch(/Parameters:\n {2}none/);
  });
});
