// The host keeps its lead over the apps it drives: a target's processes run at a lower CPU
// priority than the host, so that a burst of theirs (a heavy page; the browser tearing a
// context down at a kill) cannot keep the host from answering the kill control and the agent.
// Measured in bench figure 4, "kill → refusal, 3000 requests queued": on two CPUs, Chromium's
// teardown at equal priority delayed the refusal by up to 280 ms; lowered, by at most 20 ms.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';

/** A target's priority: the OS's "below normal" (nice 10 on Linux and macOS). */
export const TARGET_PRIORITY: number = os.constants.priority.PRIORITY_BELOW_NORMAL;

/**
 * Lowers the CPU priority of process `pid` and what it has started. Children it starts later
 * inherit the lower priority (a process's nice value, Windows' priority class). On Linux, the
 * threads of each process are lowered one by one (there a nice value is a thread's), and so is
 * the process's autogroup when it has one of its own (a browser Playwright starts in a session
 * of its own): the kernel shares the CPU between autogroups first, whatever their members'
 * nice values, and a browser running as root raises its own threads above the host's.
 *
 * Resolves with what could not be lowered, for the log; never throws: a target at normal
 * priority still works, only with less of a lead for the kill control.
 */
export async function lowerCpuPriority(pid: number, platform: NodeJS.Platform = process.platform): Promise<string[]> {
  // 0 is "this process" to the OS: a target that reports no process must not lower the host.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return [`not lowering the CPU priority of process ${pid}: it is not a target's`];
  const problems: string[] = [];
  const lower = (id: number, what: string) => {
    try {
      os.setPriority(id, Math.max(TARGET_PRIORITY, os.getPriority(id)));
    } catch (error) {
      problems.push(`could not lower the CPU priority of ${what}: ${(error as Error).message}`);
    }
  };
  if (platform !== 'linux') {
    lower(pid, `process ${pid}`);
    return problems;
  }
  const threads = await threadsOf(pid);
  if (threads === null) return [`could not lower the CPU priority of process ${pid}: it is not running`];
  for (const member of [pid, ...(await descendantsOf(pid))]) {
    for (const thread of (await threadsOf(member)) ?? []) lower(thread, `thread ${thread} of process ${member}`);
  }
  await lowerAutogroup(pid, problems);
  return problems;
}

/** The process's threads (Linux), or null when it is not running. */
async function threadsOf(pid: number): Promise<number[] | null> {
  try {
    return (await readdir(`/proc/${pid}/task`)).map(Number).filter(Number.isInteger);
  } catch {
    return null;
  }
}

/** Every process below `pid` in the process tree (Linux: from each /proc/N/stat's parent field). */
async function descendantsOf(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    const child = Number(name);
    if (!Number.isInteger(child)) continue;
    const stat = await readFile(`/proc/${child}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const visit = (id: number) => {
    for (const child of children.get(id) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Lowers the autogroup of `pid` when it is not the host's own (which would slow the host). */
async function lowerAutogroup(pid: number, problems: string[]): Promise<void> {
  const groupOf = async (id: number | 'self') => (await readFile(`/proc/${id}/autogroup`, 'utf8').catch(() => '')).split(' ')[0] ?? '';
  const [theirs, ours] = await Promise.all([groupOf(pid), groupOf('self')]);
  if (!theirs || theirs === ours) return;
  try {
    await writeFile(`/proc/${pid}/autogroup`, String(TARGET_PRIORITY));
  } catch (error) {
    problems.push(`could not lower the CPU priority of the autogroup of process ${pid}: ${(error as Error).message}`);
  }
}
