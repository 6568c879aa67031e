// `cutright-mcp [--socket PATH]`: the MCP server over stdio. stdout carries MCP messages only;
// what a person should read goes to stderr. It stores nothing on disk: the token is an
// argument of each tool call and lives only in the agent's conversation.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SOCKET_ENV_VAR, defaultSocketPath, resolveSocketPath } from '../service/socket-path.js';
import { createDemoMcpServer } from './server.js';
import { DEMO_TOOLS } from './tools.js';

export const EXIT_OK = 0;
export const EXIT_USAGE = 2;

/** The streams and environment runMcp uses (the process's own in bin/cutright-mcp.js). */
export interface McpIo {
  stdin: Readable;
  stdout: Writable;
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

export class McpUsageError extends Error {
  override readonly name = 'McpUsageError';
}

export type McpArgs = { kind: 'help' } | { kind: 'serve'; socket: string | undefined };

/** Reads cutright-mcp's arguments; throws McpUsageError naming what was wrong. */
export function parseMcpArgs(argv: readonly string[]): McpArgs {
  let socket: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--socket' || arg.startsWith('--socket=')) {
      const value = arg === '--socket' ? argv[++i] : arg.slice('--socket='.length);
      if (value === undefined || value === '' || value.startsWith('--')) throw new McpUsageError('--socket needs a path, e.g. --socket /run/user/1000/rightkit/agent-demo.sock');
      socket = value;
    } else {
      throw new McpUsageError(`unknown argument ${JSON.stringify(arg)}: cutright-mcp takes only --socket PATH and --help`);
    }
  }
  return { kind: 'serve', socket };
}

export function mcpHelp(env: NodeJS.ProcessEnv = process.env): string {
  return [
    'Usage: cutright-mcp [--socket PATH]',
    '',
    'An MCP server over stdio through which any MCP client can ask the person at this computer',
    'for a demo session in CutRight and drive it. Consent is always answered in CutRight itself.',
    '',
    `Tools: ${DEMO_TOOLS.map((tool) => tool.name).join(', ')}`,
    '',
    'Options:',
    `  --socket PATH  the host's socket (default: $${SOCKET_ENV_VAR}, else ${defaultSocketPath(env)})`,
    '  --help         this text',
    '',
    'An MCP client starts it as a command, for example: {"command": "npx", "args": ["cutright-mcp"]}.',
    '',
  ].join('\n');
}

/** The package's version, from the package.json above this file (in src/ or in the build). */
function packageVersion(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(folder, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cutright-host' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(folder);
    if (parent === folder) return '0.0.0';
    folder = parent;
  }
}

/**
 * Runs cutright-mcp until its client closes stdin (or a signal ends it). Resolves with the
 * exit code. A call still in flight then is cancelled, which closes its connection to the host
 * (a pending consent dialog is withdrawn).
 */
export async function runMcp(argv: readonly string[], io: McpIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  let args: McpArgs;
  try {
    args = parseMcpArgs(argv);
  } catch (error) {
    if (!(error instanceof McpUsageError)) throw error;
    io.stderr.write(`cutright-mcp: ${error.message}\nRun "cutright-mcp --help" for usage.\n`);
    return EXIT_USAGE;
  }
  if (args.kind === 'help') {
    io.stdout.write(mcpHelp(io.env));
    return EXIT_OK;
  }

  const socketPath = resolveSocketPath(args.socket, io.env);
  const server = createDemoMcpServer({ socketPath, version: packageVersion() });
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  transport.onerror = (error) => io.stderr.write(`cutright-mcp: ${error.message}\n`);
  await server.connect(transport);
  io.stderr.write(`cutright-mcp: serving the CutRight host at ${socketPath} over stdio\n`);

  // The stdio transport does not watch for the end of its input: a client that exits closes stdin.
  const close = (): void => void server.close();
  io.stdin.once('end', close);
  signals.once('SIGTERM', close);
  signals.once('SIGINT', close);
  await closed;
  signals.off('SIGTERM', close);
  signals.off('SIGINT', close);
  return EXIT_OK;
}
