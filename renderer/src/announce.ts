// What the live region says when sessions start, take a step or end (for screen readers: the
// kill bar changes silently otherwise).
import type { LiveSession } from '../../src/ui-protocol/index.js';
import { shortText } from './display-text.js';
import { plural } from './format.js';

function who(session: LiveSession): string {
  return `${shortText(session.appName, 40)} (agent "${shortText(session.agentName, 40)}")`;
}

/** The sentences for the change from `before` to `after` (both: the live sessions); none at first sight. */
export function announcements(before: readonly LiveSession[] | null, after: readonly LiveSession[]): string[] {
  if (before === null) return [];
  const previous = new Map(before.map((s) => [s.sessionId, s]));
  const current = new Set(after.map((s) => s.sessionId));
  const out: string[] = [];
  for (const session of after) {
    const was = previous.get(session.sessionId);
    if (!was) out.push(`Demo session started: ${who(session)}.`);
    else if (was.phase !== 'armed' && session.phase === 'armed') out.push(`Recording ${who(session)}.`);
    if (session.cannotOpen !== null && (was?.cannotOpen ?? null) === null) out.push(`Could not open ${who(session)}: ${session.cannotOpen}.`);
    if (session.steps > (was?.steps ?? 0)) out.push(`${shortText(session.appName, 40)}: step ${session.steps} done (${plural(session.steps, 'step')} so far).`);
  }
  for (const session of before) {
    if (!current.has(session.sessionId)) out.push(`Demo session ended: ${who(session)}.`);
  }
  return out;
}
