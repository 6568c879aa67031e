// The accessible-name tests of web-platform-tests (the shared corpus, copied unchanged) as the
// host sees them: the pages with the capture-state declaration added, and, for the page a
// session shows, each listed element with the name the test expects of it. Used by the
// corpus test (src/targets/wpt-accname.test.ts) and by the benchmark's row.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../../../shared/corpus/wpt-accname/', import.meta.url));
const DECLARATION = '<meta name="cutright-capture-state" content="safe">';

/** Expectations this host does not meet, by test name, each with the reason. */
export const EXCEPTIONS = {
  "button's hidden referenced name (visibility:hidden) with hidden aria-labeledby traversal falls back to aria-label":
    'the page has two elements with id "span4"; the reference resolves to the first, a hidden span reading "label", so the name is "label" (Chromium computes the same)',
  'button name from fallback content with ::before and ::after':
    "the page's CSS sets `content` on the element itself (not on ::before/::after), so no pseudo-element exists; the name is its text \"label\" (Chromium computes the same)",
  'link name from fallback content with ::before and ::after':
    "the page's CSS sets `content` on the element itself (not on ::before/::after), so no pseudo-element exists; the name is its text \"label\" (Chromium computes the same)",
  'link with text with tooltip label': 'accname 1.2 names a link from its content (step 2F) before its title (2I): "content", as Chromium does',
  'button with tooltip label': 'accname 1.2 names a button from its content (step 2F) before its title (2I): "button", as Chromium does',
  'summary with tooltip label': 'accname 1.2 names a summary (a button) from its content (step 2F) before its title (2I): "summary", as Chromium does',
};

/** The corpus's pages, as paths relative to it. */
export function corpusPages() {
  const out = [];
  const visit = (dir) => {
    for (const entry of readdirSync(path.join(CORPUS_DIR, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) visit(relative);
      else if (entry.name.endsWith('.html')) out.push(relative);
    }
  };
  visit('.');
  return out.sort();
}

/** The page with the capture-state declaration first in its head (or where its head begins). */
export function declared(html) {
  for (const tag of [/<head[^>]*>/i, /<html[^>]*>/i, /<!doctype[^>]*>/i]) {
    const match = tag.exec(html);
    if (match) return html.slice(0, match.index + match[0].length) + DECLARATION + html.slice(match.index + match[0].length);
  }
  return DECLARATION + html;
}

/** Path → HTML of every corpus page (declared), plus `/` as a start page. */
export function corpusTable() {
  const table = { '/': `<!doctype html>${DECLARATION}<title>start</title>` };
  for (const page of corpusPages()) table[`/${page}`] = declared(readFileSync(path.join(CORPUS_DIR, page), 'utf8'));
  return table;
}

/** What a conforming browser's name becomes under the snapshot's whitespace rule. */
export function normalized(expected) {
  return expected.replace(/[ \t\n\f\r]+/g, ' ').replace(/^ | $/g, '');
}

/**
 * The host's snapshot of the page `transport` shows, each element paired with its DOM
 * element's expectation. Which DOM element an entry is: the agent's own walk (same document,
 * same order) in its isolated world, whose entries must equal the host's one for one.
 */
export async function listedWithExpectations(client, token, transport, origin) {
  const { elements } = await client.call('demo.snapshot', { token });
  const tree = await transport.send('Page.getFrameTree');
  // The same world name is the same world: the agent the host installed.
  const { executionContextId } = await transport.send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: 'cutright' });
  const answer = await transport.send('Runtime.callFunctionOn', {
    functionDeclaration: `function (allowed) {
      const a = globalThis.__cutrightAgent;
      return a.snapshot(allowed, 2000).elements.map((e) => {
        const el = a.element(e[0]);
        return [e[1], e[2], el.getAttribute('data-expectedlabel'), el.getAttribute('data-testname')];
      });
    }`,
    executionContextId,
    arguments: [{ value: [origin] }],
    returnByValue: true,
  });
  const walked = answer.result.value;
  const same = walked.length === elements.length && walked.every(([role, label], i) => elements[i].role === role && elements[i].label === label);
  if (!same) throw new Error(`the agent's walk differs from the host's snapshot: ${JSON.stringify(walked.map(([r, l]) => [r, l]))} vs ${JSON.stringify(elements.map((e) => [e.role, e.label]))}`);
  return walked.filter(([, , expected]) => expected !== null).map(([, label, expected, test]) => ({ test: test ?? '', expected, label }));
}

/** Navigates the session's page to each corpus page and collects every listed expectation. */
export async function compareCorpus(client, token, transport, url) {
  const compared = [];
  // Load events come only to a session that enabled the Page domain (a fresh one has not).
  await transport.send('Page.enable');
  for (const page of corpusPages()) {
    const loaded = new Promise((resolve) => {
      const off = transport.on('Page.loadEventFired', () => {
        off();
        resolve();
      });
    });
    await transport.send('Page.navigate', { url: new URL(page, url).href });
    await loaded;
    compared.push(...(await listedWithExpectations(client, token, transport, new URL(url).origin)));
  }
  return compared;
}
