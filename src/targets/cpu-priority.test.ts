import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { lowerCpuPriority, TARGET_PRIORITY } from './cpu-priority.js';

const linux = process.platform === 'linux';
const autogroups = linux && existsSync('/proc/sys/kernel/sched_autogroup_enabled') && readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
const autogroup = (pid: number | 'self') => readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
});

/** A shell that has started a child of its own; `detached` puts it in a session (and autogroup) of its own. */
async function processTree(detached: boolean): Promise<{ parent: number; child: number }> {
  const shell = spawn('sh', ['-c', 'sleep 30 & echo $!; wait'], { detached, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(shell);
  const child = await new Promise<number>((resolve) => shell.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  return { parent: shell.pid!, child };
}

describe('lowerCpuPriority', () => {
  it('lowers a process and what it already started below the host, and leaves the host as it was', async () => {
    const ours = os.getPriority();
    const ourGroup = linux ? autogroup('self') : '';
    const { parent, child } = await processTree(true);
    expect(await lowerCpuPriority(parent)).toEqual([]);
    expect(os.getPriority(parent)).toBe(TARGET_PRIORITY);
    if (linux) expect(os.getPriority(child)).toBe(TARGET_PRIORITY);
    expect(os.getPriority()).toBe(ours);
    if (autogroups) {
      // Its session's autogroup, which the kernel weighs against the host's before any nice value.
      expect(autogroup(parent)).toMatch(new RegExp(`nice ${TARGET_PRIORITY}$`));
      expect(autogroup('self')).toBe(ourGroup);
    }
  });

  it.runIf(autogroups)("never lowers the host's own autogroup when the target shares it", async () => {
    const ourGroup = autogroup('self');
    const { parent } = await processTree(false);
    expect(autogroup(parent).split(' ')[0]).toBe(ourGroup.split(' ')[0]);
    expect(await lowerCpuPriority(parent)).toEqual([]);
    expect(os.getPriority(parent)).toBe(TARGET_PRIORITY);
    expect(autogroup('self')).toBe(ourGroup);
  });

  it('keeps a target that is already lower where it is', async () => {
    const { parent } = await processTree(true);
    os.setPriority(parent, 19);
    await lowerCpuPriority(parent);
    expect(os.getPriority(parent)).toBe(19);
  });

  it('reports, not throws, what it could not lower', async () => {
    const { parent } = await processTree(true);
    process.kill(-parent, 'SIGKILL');
    await new Promise((resolve) => started[0]!.once('exit', resolve));
    const problems = await lowerCpuPriority(parent);
    expect(problems.join('\n')).toMatch(new RegExp(`could not lower the CPU priority of process ${parent}`));
  });

  it('never lowers the host itself, which the OS calls 0', async () => {
    const ours = os.getPriority();
    for (const pid of [0, process.pid, -1]) expect(await lowerCpuPriority(pid)).toEqual([`not lowering the CPU priority of process ${pid}: it is not a target's`]);
    expect(os.getPriority()).toBe(ours);
  });
});
