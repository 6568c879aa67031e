// Reading a bundle's events into the views the UI shows (BundleSummary, BundleDetail).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnnotationsRead } from './annotations.js';
import type { PlayableRecording } from './playback.js';
import { autoCaption } from './presentation.js';
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

/** The steps, each with its caption: the person's edit (from annotations that check out), else the receipt's. */
export function stepsOf(events: BundleEvent[], annotations: AnnotationsRead = { state: 'none' }): BundleStep[] {
  const steps: BundleStep[] = [];
  const byReceipt = new Map<string, BundleStep>();
  const edits = annotations.state === 'ok' ? annotations.annotations.captions : {};
  for (const event of events) {
    if (event.type === 'receipt') {
      const auto = autoCaption(event);
      const edit = Object.hasOwn(edits, event.receiptId) ? edits[event.receiptId] : undefined;
      const step: BundleStep = {
        index: steps.length,
        receiptId: event.receiptId,
        at: event.at,
        op: event.op,
        ref: event.ref,
        role: event.role,
        label: event.label,
        picture: null,
        caption: edit?.text ?? auto,
        autoCaption: auto,
        captionEditedAt: edit?.at ?? null,
      };
      if (event.text !== undefined) step.text = event.text;
      if (event.key !== undefined) step.key = event.key;
      if (event.box && event.viewport) {
        step.box = { ...event.box };
        step.viewport = { ...event.viewport };
        if (event.point) step.point = { ...event.point };
      }
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

export function detailOf(events: BundleEvent[], annotations: AnnotationsRead = { state: 'none' }, recording: PlayableRecording | null = null): BundleDetail {
  const consent = consentOf(events);
  const edits =
    annotations.state === 'none'
      ? null
      : annotations.state === 'ok'
        ? { captions: Object.keys(annotations.annotations.captions).length, updatedAt: annotations.annotations.updatedAt, problem: null }
        : { captions: 0, updatedAt: null, problem: annotations.problem };
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
    steps: stepsOf(events, annotations),
    edits,
    recording,
  };
}
