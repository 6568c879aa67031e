// cutright-mcp's command line: --socket, --help, and what a mistake is told.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE, McpUsageError, parseMcpArgs, runMcp } from './cli.js';

function io() {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const err: string[] = [];
  return { io: { stdin: new PassThrough(), stdout, stderr: { write: (s: string) => err.push(s) }, env: { CUTRIGHT_SOCKET: '/run/x.sock' } }, out: () => out, err: () => err.join('') };
}

describe('cutright-mcp arguments', () => {
  it('take --socket PATH or --socket=PATH, else leave the socket to CUTRIGHT_SOCKET and the default', () => {
    expect(parseMcpArgs([])).toEqual({ kind: 'serve', socket: undefined });
    expect(parseMcpArgs(['--socket', '/tmp/a.sock'])).toEqual({ kind: 'serve', socket: '/tmp/a.sock' });
    expect(parseMcpArgs(['--socket=/tmp/b.sock'])).toEqual({ kind: 'serve', socket: '/tmp/b.sock' });
    expect(parseMcpArgs(['--socket', '/tmp/a.sock', '--help'])).toEqual({ kind: 'help' });
  });

  it('name what is wrong', () => {
    expect(() => parseMcpArgs(['--socket'])).toThrow(new McpUsageError('--socket needs a path, e.g. --socket /run/user/1000/rightkit/agent-demo.sock'));
    expect(() => parseMcpArgs(['--socket='])).toThrow(McpUsageError);
    expect(() => parseMcpArgs(['--socket', '--help'])).toThrow(/--socket needs a path/);
    expect(() => parseMcpArgs(['--port', '3'])).toThrow('unknown argument "--port": cutright-mcp takes only --socket PATH and --help');
  });

  it('--help prints the usage, the tools and the socket default on stdout and exits 0', async () => {
    const run = io();
    expect(await runMcp(['--help'], run.io)).toBe(EXIT_OK);
    expect(run.out()).toMatch(/^Usage: cutright-mcp \[--socket PATH\]/);
    expect(run.out()).toContain('Tools: demo_request, demo_apps, demo_snapshot, demo_act, demo_batch, demo_end');
    expect(run.out()).toContain('$CUTRIGHT_SOCKET');
    expect(run.err()).toBe('');
  });

  it('a bad argument exits 2 with the reason on stderr and nothing on stdout (the MCP channel)', async () => {
    const run = io();
    expect(await runMcp(['--verbose'], run.io)).toBe(EXIT_USAGE);
    expect(run.err()).toBe('cutright-mcp: unknown argument "--verbose": cutright-mcp takes only --socket PATH and --help\nRun "cutright-mcp --help" for usage.\n');
    expect(run.out()).toBe('');
  });
});
