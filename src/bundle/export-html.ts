// One self-contained HTML page of a bundle: for the person who consented, the operator and the
// agent's author. Pictures are inlined as data: URIs; a CSP forbids anything external or scripted.
import { lstat, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { PICTURE_FILE_PATTERN, type BundleEvent, type EndEvent } from './format.js';
import { readBundleEvents } from './read.js';
import { requesterText } from './requester-text.js';
import { verifyBundle, type VerifyResult } from './verify.js';

const CSS = `
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem;margin-bottom:.25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0}
.state{display:inline-block;padding:.1rem .5rem;border-radius:.25rem;font-weight:600}
.complete{background:#e3f5e1;color:#17641c}.killed{background:#fde4e1;color:#8a1c12}.open{background:#eee;color:#333}
.ok{color:#17641c}.bad{color:#8a1c12;font-weight:600}
ol.steps{list-style:none;padding:0}ol.steps li{border:1px solid #ddd;border-radius:.4rem;padding:.75rem;margin:.75rem 0}
.step-head{font-weight:600}.muted{color:#666;font-size:.9em}code{background:#f4f4f4;padding:0 .2rem;border-radius:.2rem;word-break:break-all}
img{display:block;max-width:100%;margin-top:.5rem;border:1px solid #ccc}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.2rem .5rem;border-bottom:1px solid #eee}
`;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const time = (ms: number): string => escapeHtml(new Date(ms).toISOString());

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

function verificationHtml(result: VerifyResult): string {
  if (result.ok) {
    const source = { given: 'the given key', installation: "this installation's key", trusted: 'a key named as trusted' }[result.keySource];
    return `<p class="ok">Sealed and intact: every file matches the signed manifest (signed by <code>${escapeHtml(result.fingerprint)}</code>, checked against ${escapeHtml(source)}).</p>`;
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

/** Renders the bundle in `dir` (open or sealed) as one HTML page with no external references. */
export async function exportBundleHtml(dir: string): Promise<string> {
  const events: BundleEvent[] = await readBundleEvents(dir, basename(dir));
  const consent = events[0];
  if (consent?.type !== 'consent') throw new Error(`bundle ${basename(dir)} has no consent record`);
  const end = events.at(-1)?.type === 'end' ? (events.at(-1) as EndEvent) : undefined;
  const verification = await verifyBundle(dir);

  const pictures = new Map<string, string>();
  for (const event of events) if (event.type === 'picture') pictures.set(event.receiptId, event.file);
  const steps: string[] = [];
  for (const event of events) {
    if (event.type !== 'receipt') continue;
    const file = pictures.get(event.receiptId);
    const uri = file ? await pictureDataUri(dir, file) : null;
    const typed = event.text !== undefined ? `<div>Typed: <code>${escapeHtml(event.text)}</code></div>` : '';
    const key = event.key !== undefined ? `<div>Key: <code>${escapeHtml(event.key)}</code></div>` : '';
    const picture = uri
      ? `<img alt="${escapeHtml(`The app after step ${steps.length + 1}`)}" src="${uri}">`
      : `<div class="muted">${file ? `Picture ${escapeHtml(file)} is missing.` : 'No picture was captured.'}</div>`;
    steps.push(`<li><div class="step-head">${steps.length + 1}. ${escapeHtml(event.op)} ${escapeHtml(event.role)} “${escapeHtml(event.label)}”</div>
<div class="muted">${time(event.at)} · receipt <code>${escapeHtml(event.receiptId)}</code> · ref <code>${escapeHtml(event.ref)}</code></div>${typed}${key}${picture}</li>`);
  }
  const calls = events
    .filter((e) => e.type === 'call')
    .map((e) => `<tr><td>${time(e.at)}</td><td><code>${escapeHtml(e.method)}</code></td><td>${e.ok ? 'ok' : `error: <code>${escapeHtml(e.code ?? '')}</code>`}</td></tr>`);
  const state = end ? end.state : 'open';

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo bundle ${escapeHtml(consent.bundleId)}</title>
<style>${CSS}</style></head>
<body>
<h1>Demo of ${escapeHtml(consent.appName)} <span class="state ${state}">${escapeHtml(state)}</span></h1>
<p class="muted">Bundle <code>${escapeHtml(consent.bundleId)}</code> · session <code>${escapeHtml(consent.sessionId)}</code></p>
${verificationHtml(verification)}
<h2>Consent</h2>
<dl><dt>Agent (name as it claimed)</dt><dd>${escapeHtml(consent.agentName)}</dd>
<dt>App</dt><dd>${escapeHtml(consent.appName)} <code>${escapeHtml(consent.appId)}</code></dd>
<dt>Asked by (the process, as the OS reported it)</dt><dd>${consent.requester ? escapeHtml(requesterText(consent.requester)) : '<span class="muted">not recorded (a bundle from before the host recorded it)</span>'}</dd>
<dt>Asked</dt><dd>${time(consent.requestedAt)}</dd>
<dt>Answered</dt><dd>${time(consent.answeredAt)}</dd>
<dt>Answer</dt><dd>${escapeHtml(consent.answer)}</dd>
<dt>Answered by</dt><dd>${escapeHtml(consent.answeredBy)}</dd></dl>
<h2>Steps (${steps.length})</h2>
${steps.length ? `<ol class="steps">${steps.join('\n')}</ol>` : '<p class="muted">No step ran.</p>'}
<h2>Calls (${calls.length})</h2>
${calls.length ? `<table><thead><tr><th>At</th><th>Method</th><th>Outcome</th></tr></thead><tbody>${calls.join('\n')}</tbody></table>` : '<p class="muted">No calls recorded.</p>'}
<h2>End</h2>
${endHtml(end)}
</body></html>
`;
}
