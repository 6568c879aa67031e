// One self-contained HTML page of a bundle that reads as a demo first: title, app, agent and
// date, then every step with its caption and its picture (zoomed to the step, the element
// outlined, the click marked; the whole frame a click away); the seal, consent, receipts and
// calls in a section below; above the steps, the recording's player (export-player.ts) when the
// bundle is sealed with a recording. Pictures and frames are inlined as data: URIs; a CSP
// forbids anything external and allows only the player's own script, by its hash. All text is
// escaped.
import { lstat, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { annotationsOf } from './annotations.js';
import { PICTURE_FILE_PATTERN, type BundleEvent, type EndEvent } from './format.js';
import { captionParts, captionText, focusArea, highlightStroke, HIGHLIGHT_COLOUR } from './presentation.js';
import { embeddedPlayerData, playerHtml, playerScriptSource, PLAYER_CSS } from './export-player.js';
import { playableRecording } from './playback.js';
import { detailOf, readBundleEvents } from './read.js';
import { requesterText } from './requester-text.js';
import { verifyBundle, type VerifyResult } from './verify.js';
import type { BundleDetail, BundleStep } from './views.js';

const CSS = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}
header,main{max-width:64rem;margin:0 auto;padding:0 1rem}header{padding-top:1.5rem}
h1{font-size:1.75rem;margin:0 0 .25rem}h2{font-size:1.25rem;margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}h3{font-size:1.05rem}
.byline{color:#4a4a4f;margin:0}.muted{color:#5a5a60;font-size:.9em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#4a4a4f}dd{margin:0}
.state{display:inline-block;padding:.05rem .5rem;border-radius:.25rem;font-weight:600}
.complete{background:#e3f5e1;color:#17641c}.killed{background:#fde4e1;color:#8a1c12}.open{background:#eee;color:#333}
.ok{color:#17641c}.bad{color:#8a1c12;font-weight:600}
ol.steps{list-style:none;padding:0}ol.steps>li{margin:1.5rem 0}
figure{margin:0}figcaption{font-size:1.1rem;margin:.4rem 0}.step-no{color:#4a4a4f;margin-right:.4rem}
svg.shot,img.shot{display:block;width:100%;height:auto;border:1px solid #ccc;border-radius:.4rem;background:#000}
details{margin-top:.35rem}summary{cursor:pointer;color:#1f5fbf}
code{background:#f4f4f4;padding:0 .2rem;border-radius:.2rem;word-break:break-all}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{text-align:left;padding:.2rem .5rem;border-bottom:1px solid #eee;vertical-align:top}
.edited{color:#5a5a60;font-size:.85rem}.show-in-player{margin-top:.35rem;font:inherit}
`;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const time = (ms: number): string => escapeHtml(new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));

async function pictureDataUri(dir: string, file: string): Promise<string | null> {
  if (!PICTURE_FILE_PATTERN.test(file)) return null; // never read outside the bundle folder
  const path = join(dir, file);
  try {
    if (!(await lstat(path)).isFile()) return null;
    return `data:image/jpeg;base64,${(await readFile(path)).toString('base64')}`;
  } catch {
    return null;
  }
}

export function captionHtml(caption: string): string {
  return captionParts(caption)
    .map((part) => (part.strong ? `<strong>${escapeHtml(part.text)}</strong>` : escapeHtml(part.text)))
    .join('');
}

/** The step's picture as SVG: the image (defined once, `id`), the outline and the marker; zoomed or whole. */
function pictureSvg(step: BundleStep, uri: string, id: string, whole: boolean, alt: string): string {
  const { box, point, viewport } = step as Required<Pick<BundleStep, 'box' | 'viewport'>> & BundleStep;
  const view = whole ? { x: 0, y: 0, width: viewport.width, height: viewport.height } : focusArea(box, viewport.width, viewport.height);
  const stroke = highlightStroke(view.width);
  const image = whole
    ? `<use href="#${id}"/>`
    : `<image id="${id}" href="${uri}" x="0" y="0" width="${viewport.width}" height="${viewport.height}" preserveAspectRatio="none"/>`;
  const marker = point
    ? `<circle cx="${point.x}" cy="${point.y}" r="${stroke * 3}" fill="${HIGHLIGHT_COLOUR}" fill-opacity="0.55" stroke="#fff" stroke-width="${stroke / 2}"/>`
    : '';
  return `<svg class="shot" role="img" aria-label="${escapeHtml(alt)}" viewBox="${view.x} ${view.y} ${view.width} ${view.height}" style="aspect-ratio:${view.width}/${view.height}">${image}<rect x="${box.x - stroke}" y="${box.y - stroke}" width="${box.width + 2 * stroke}" height="${box.height + 2 * stroke}" rx="${stroke}" fill="none" stroke="${HIGHLIGHT_COLOUR}" stroke-width="${stroke}"/>${marker}</svg>`;
}

async function stepHtml(dir: string, step: BundleStep, n: number, playable: boolean): Promise<string> {
  const uri = step.picture ? await pictureDataUri(dir, step.picture) : null;
  const alt = `Step ${n}: ${captionText(step.caption)}`;
  let picture: string;
  if (!uri) picture = `<p class="muted">${step.picture ? `Picture ${escapeHtml(step.picture)} is missing.` : 'No picture was captured for this step.'}</p>`;
  else if (step.box && step.viewport) {
    picture = `${pictureSvg(step, uri, `shot-${n}`, false, alt)}
<details><summary>Show the whole frame of step ${n}</summary>${pictureSvg(step, uri, `shot-${n}`, true, `${alt} (whole frame)`)}</details>`;
  } else picture = `<img class="shot" alt="${escapeHtml(alt)}" src="${uri}">`;
  const edited = step.captionEditedAt !== null ? `<p class="edited">Caption edited ${time(step.captionEditedAt)}; recorded as: ${captionHtml(step.autoCaption)}</p>` : '';
  // Shown by the player's script only: without JavaScript there is no player to show it in.
  const show = playable ? `<button type="button" class="show-in-player" data-player-step="${n - 1}" aria-label="Show step ${n} in the player" hidden>Show in the player</button>` : '';
  return `<li id="step-${n}"><figure><figcaption><span class="step-no">Step ${n}</span> ${captionHtml(step.caption)}</figcaption>${picture}</figure>${edited}${show}</li>`;
}

function verificationHtml(result: VerifyResult): string {
  if (result.ok) {
    const source = { given: 'the given key', installation: "this installation's key", trusted: 'a key named as trusted' }[result.keySource];
    const edits = result.edits?.captions
      ? ` ${result.edits.captions === 1 ? 'One caption was' : `${result.edits.captions} captions were`} edited after sealing (in <code>annotations.json</code>, signed by the same key); the record itself is unchanged.`
      : '';
    return `<p class="ok">Sealed and intact: every file matches the signed manifest (signed by <code>${escapeHtml(result.fingerprint)}</code>, checked against ${escapeHtml(source)}).${edits}</p>`;
  }
  if (result.problem.startsWith('missing: the bundle is not sealed')) return '<p class="muted">Not sealed yet: this bundle is still open, or its host stopped before sealing it.</p>';
  return `<p class="bad">Does not verify: <code>${escapeHtml(result.file)}</code> ${escapeHtml(result.problem)}</p>`;
}

function endHtml(end: EndEvent | undefined): string {
  if (!end) return '<p class="muted">No end recorded: the session was still running when this page was made.</p>';
  const notes: string[] = [];
  if (end.truncated) notes.push(`<p class="muted">${escapeHtml(end.truncated.note)}</p>`);
  if (end.unreferencedFiles?.length) {
    notes.push(`<p class="muted">Files no event refers to (a write that failed halfway): ${end.unreferencedFiles.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}</p>`);
  }
  return `<dl><dt>State</dt><dd><span class="state ${end.state}">${escapeHtml(end.state)}</span></dd>
<dt>Reason</dt><dd>${escapeHtml(end.reason)}</dd><dt>At</dt><dd>${time(end.at)}</dd></dl>${notes.join('')}`;
}

function recordHtml(detail: BundleDetail, events: BundleEvent[], verification: VerifyResult): string {
  const { consent, summary } = detail;
  const end = events.at(-1)?.type === 'end' ? (events.at(-1) as EndEvent) : undefined;
  const receipts = detail.steps.map(
    (s, i) =>
      `<tr><td>${i + 1}</td><td>${time(s.at)}</td><td><code>${escapeHtml(s.op)}</code></td><td>${escapeHtml(s.role)} “${escapeHtml(s.label)}”</td><td>${
        s.text !== undefined ? `Typed: <code>${escapeHtml(s.text)}</code>` : s.key !== undefined ? `Key: <code>${escapeHtml(s.key)}</code>` : ''
      }</td><td><code>${escapeHtml(s.receiptId)}</code></td><td><code>${escapeHtml(s.ref)}</code></td></tr>`,
  );
  const calls = events
    .filter((e) => e.type === 'call')
    .map((e) => `<tr><td>${time(e.at)}</td><td><code>${escapeHtml(e.method)}</code></td><td>${e.ok ? 'ok' : `error: <code>${escapeHtml(e.code ?? '')}</code>`}</td></tr>`);
  return `<section aria-labelledby="record"><h2 id="record">The record: seal, consent, receipts</h2>
<h3>Seal</h3>${verificationHtml(verification)}
<p class="muted">Bundle <code>${escapeHtml(summary.bundleId)}</code> · session <code>${escapeHtml(summary.sessionId)}</code></p>
<h3>Consent</h3>
<dl><dt>Agent (name as it claimed)</dt><dd>${escapeHtml(consent.agentName)}</dd>
<dt>App</dt><dd>${escapeHtml(consent.appName)} <code>${escapeHtml(consent.appId)}</code></dd>
<dt>Asked by (the process, as the OS reported it)</dt><dd>${consent.requester ? escapeHtml(requesterText(consent.requester)) : '<span class="muted">not recorded (a bundle from before the host recorded it)</span>'}</dd>
<dt>Asked</dt><dd>${time(consent.requestedAt)}</dd><dt>Answered</dt><dd>${time(consent.answeredAt)}</dd>
<dt>Answer</dt><dd>${escapeHtml(consent.answer)}</dd><dt>Answered by</dt><dd>${escapeHtml(consent.answeredBy)}</dd></dl>
<h3>Receipts (${receipts.length})</h3>
${receipts.length ? `<table><thead><tr><th scope="col">Step</th><th scope="col">At</th><th scope="col">Op</th><th scope="col">Element</th><th scope="col">Input</th><th scope="col">Receipt</th><th scope="col">Ref</th></tr></thead><tbody>${receipts.join('\n')}</tbody></table>` : '<p class="muted">No step ran.</p>'}
<h3>Calls (${calls.length})</h3>
${calls.length ? `<table><thead><tr><th scope="col">At</th><th scope="col">Method</th><th scope="col">Outcome</th></tr></thead><tbody>${calls.join('\n')}</tbody></table>` : '<p class="muted">No calls recorded.</p>'}
<h3>End</h3>
${endHtml(end)}
</section>`;
}

/** Renders the bundle in `dir` (open or sealed) as one HTML page with no external references. */
export async function exportBundleHtml(dir: string): Promise<string> {
  const events: BundleEvent[] = await readBundleEvents(dir, basename(dir));
  const detail = detailOf(events, await annotationsOf(dir, basename(dir)), await playableRecording(dir, events));
  const { summary } = detail;
  const verification = await verifyBundle(dir);
  const player = await embeddedPlayerData(dir, detail);
  const steps: string[] = [];
  for (const [i, step] of detail.steps.entries()) steps.push(await stepHtml(dir, step, i + 1, player !== null));
  const title = `Demo of ${summary.appName}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'${player ? `; script-src ${playerScriptSource()}` : ''}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(new Date(summary.startedAt).toISOString().slice(0, 10))}</title>
<style>${CSS}${player ? PLAYER_CSS : ''}</style></head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="byline">Driven by an agent that called itself <strong>${escapeHtml(summary.agentName)}</strong> · ${time(summary.startedAt)} · ${detail.steps.length} ${detail.steps.length === 1 ? 'step' : 'steps'} · <span class="state ${summary.state}">${escapeHtml(summary.state)}</span></p>
</header>
<main>
${player ? playerHtml(player) : ''}
<section aria-labelledby="steps"><h2 id="steps">Steps</h2>
${steps.length ? `<ol class="steps">${steps.join('\n')}</ol>` : '<p class="muted">No step ran.</p>'}
</section>
${recordHtml(detail, events, verification)}
</main>
</body></html>
`;
}
