// Reading a bundle's events into the views the UI shows (BundleSummary, BundleDetail).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleDetail, BundleStep, BundleSummary } from './views.js';
import { EVENTS_FILE, parseEvents, type BundleEvent, type ConsentEvent, type EndEvent } from './format.js';

/**
 * The complete events of a bundle folder. A partly written last line is left out (it is either
 * an append in progress or a crash that recovery will note). Any other problem throws.
 */
export async function readBundleEvents(dir: string, label: string): Promise<BundleEvent[]> {
  const data = await readFile(join(dir, EVENTS_FILE));
  const parsed = parseEvents(data);
  if (parsed.problem) {
    throw new Error(`bundle ${label}: ${EVENTS_FILE} line ${parsed.problem.line}: ${parsed.problem.message}`);
  }
  if (parsed.events.length === 0) throw new Error(`bundle ${label}: ${EVENTS_FILE} holds no consent record`);
  return parsed.events;
}

function consentOf(events: BundleEvent[]): ConsentEvent {
  const first = events[0];
  // parseEvents guarantees a consent record first; this keeps the types honest.
  if (first?.type !== 'consent') throw new Error('events do not start with a consent record');
  return first;
}

function endOf(events: BundleEvent[]): EndEvent | null {
  const last = events.at(-1);
  return last?.type === 'end' ? last : null;
}

export function summarize(events: BundleEvent[]): BundleSummary {
  const consent = consentOf(events);
  const end = endOf(events);
  return {
    bundleId: consent.bundleId,
    sessionId: consent.sessionId,
    appId: consent.appId,
    appName: consent.appName,
    agentName: consent.agentName,
    state: end ? end.state : 'open',
    reason: end ? end.reason : null,
    startedAt: consent.answeredAt,
    endedAt: end ? end.at : null,
    steps: events.filter((e) => e.type === 'receipt').length,
  };
}

export function stepsOf(events: BundleEvent[]): BundleStep[] {
  const steps: BundleStep[] = [];
  const byReceipt = new Map<string, BundleStep>();
  for (const event of events) {
    if (event.type === 'receipt') {
      const step: BundleStep = {
        index: steps.length,
        receiptId: event.receiptId,
        at: event.at,
        op: event.op,
        ref: event.ref,
        role: event.role,
        label: event.label,
        picture: null,
      };
      if (event.text !== undefined) step.text = event.text;
      if (event.key !== undefined) step.key = event.key;
      steps.push(step);
      byReceipt.set(event.receiptId, step);
    } else if (event.type === 'picture') {
      // The latest picture of a receipt wins (a host may retake one).
      const step = byReceipt.get(event.receiptId);
      if (step) step.picture = event.file;
    }
  }
  return steps;
}

export function detailOf(events: BundleEvent[]): BundleDetail {
  const consent = consentOf(events);
  return {
    summary: summarize(events),
    consent: {
      agentName: consent.agentName,
      appId: consent.appId,
      appName: consent.appName,
      answer: consent.answer,
      answeredBy: consent.answeredBy,
      requestedAt: consent.requestedAt,
      answeredAt: consent.answeredAt,
      requester: consent.requester ?? null,
    },
    steps: stepsOf(events),
  };
}
