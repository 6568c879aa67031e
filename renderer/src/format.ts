// Small pure helpers for what the views show.
import type { BundleStep } from '../../src/ui-protocol/index.js';

/** Elapsed time as `m:ss`, or `h:mm:ss` from an hour on. Negative spans (clock skew) show 0:00. */
export function formatElapsed(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The same span in words for screen readers: "1 hour 2 minutes 5 seconds". */
export function describeElapsed(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const parts: string[] = [];
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) parts.push(plural(h, 'hour'));
  if (m) parts.push(plural(m, 'minute'));
  if (s || parts.length === 0) parts.push(plural(s, 'second'));
  return parts.join(' ');
}

/** "1 step", "3 steps"; `many` for nouns whose plural is not noun + s. */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}

/** A timestamp (ms since epoch) as local date and time, e.g. "2025-11-30 08:27:05". */
export function formatTimestamp(ms: number, timeZone?: string): string {
  if (!Number.isFinite(ms)) return 'unknown';
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** How many requests wait behind the open consent dialog, in words; null when none. */
export function queueText(waiting: number): string | null {
  if (!(waiting > 0)) return null;
  return waiting === 1 ? '1 more request is waiting' : `${waiting} more requests are waiting`;
}

/** What a step did, in words: `click button "Submit"`, `type "Ada" into textbox "Name"`. */
export function describeStep(step: Pick<BundleStep, 'op' | 'role' | 'label' | 'text' | 'key'>): string {
  const target = `${step.role} "${step.label}"`;
  if (step.text !== undefined) return `${step.op} "${step.text}" into ${target}`;
  if (step.key !== undefined) return `${step.op} ${step.key} on ${target}`;
  return `${step.op} ${target}`;
}

/** The picture's alt text: `Step 3: click button "Submit"`; `number` counts from 1 in list order. */
export function stepPictureAlt(number: number, step: Pick<BundleStep, 'op' | 'role' | 'label' | 'text' | 'key'>): string {
  return `Step ${number}: ${describeStep(step)}`;
}

/** Why sessions end, in words for the person; the host's reason codes (bundle format). */
const END_REASONS: Record<string, string> = {
  'demo.end': 'the agent ended the session',
  'kill control': 'Stop demo was pressed',
  'host shutdown': 'CutRight host was shut down',
  'host crash': 'CutRight host stopped unexpectedly',
  'target closed': 'the app’s window was closed',
  'target crashed': 'the app crashed',
  'demo mode off': 'Demo mode was switched off',
  'disk full': 'the disk was full',
  'data folder unwritable': 'the data folder could not be written',
  'arming failed': 'the app could not be opened',
  'target could not open': 'the app could not be opened',
};

/**
 * A bundle's end reason in words, with the host's code kept beside it: `Stop demo was pressed
 * (kill control)`; a reason with a failure after its code keeps it: `the app could not be
 * opened (target could not open): no browser found…`.
 */
export function describeReason(reason: string): string {
  const colon = reason.indexOf(': ');
  const code = colon === -1 ? reason : reason.slice(0, colon);
  const words = END_REASONS[code];
  if (!words) return reason;
  return colon === -1 ? `${words} (${code})` : `${words} (${code}): ${reason.slice(colon + 2)}`;
}

/** How a bundle ended, as one sentence: `Sealed killed at 2025-11-30 08:27:05: Stop demo was pressed (kill control).` */
export function describeEnd(state: 'open' | 'complete' | 'killed', reason: string | null, endedAt: number | null, timeZone?: string): string {
  if (state === 'open') return 'The session is still running.';
  const at = endedAt !== null ? ` at ${formatTimestamp(endedAt, timeZone)}` : '';
  return `Sealed ${state}${at}${reason ? `: ${describeReason(reason)}` : ''}.`;
}

/** What went wrong, in words: an Error's message (the host's, carried by the bridge), or the thing itself. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
