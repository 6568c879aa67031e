// Runs `cutright bundle …` in process, as the command line would, keeping what it printed.
import { runBundleCommand } from './bundle-command.js';

export async function runBundle(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runBundleCommand(argv, {
    stdout: { write: (t: string) => ((stdout += t), true) } as NodeJS.WritableStream,
    stderr: { write: (t: string) => ((stderr += t), true) } as NodeJS.WritableStream,
    env,
  });
  return { code, stdout, stderr };
}
