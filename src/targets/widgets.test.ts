// Widget pages after the ARIA Authoring Practices patterns (test-pages/widgets.ts), driven as an
// agent would: snapshot, act on what is listed, check the page's state afterwards. On each,
// every listed element's name is also compared with Chromium's own accessibility tree.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCdpDriver } from './cdp-driver.js';
import { createChromiumLauncher } from './chromium-launcher.js';
import { find } from './driver.test-support.js';
import { AGENT_GLOBAL } from './page-agent/protocol.js';
import { servePages, type PageServer } from './test-pages/page-server.test-support.js';
import { COMBOBOX_GRID_PAGE, DATEPICKER_PAGE, GRID_PAGE, TREEGRID_PAGE, TREE_PAGE } from './test-pages/widgets.js';
import type { DriverElement, DriverSnapshot, OpenedTarget, TargetDriver, TargetLauncher } from './types.js';

let site: PageServer;
let launcher: TargetLauncher;
let target: OpenedTarget;
let driver: TargetDriver;

beforeAll(async () => {
  site = await servePages({ '/grid': GRID_PAGE, '/treegrid': TREEGRID_PAGE, '/tree': TREE_PAGE, '/datepicker': DATEPICKER_PAGE, '/combobox': COMBOBOX_GRID_PAGE });
  launcher = createChromiumLauncher();
  target = await launcher.open(site.url('/grid'));
  driver = await createCdpDriver(target.transport, { allowedOrigins: [site.origin] });
});

afterAll(async () => {
  await driver?.close();
  await launcher?.close();
  await site?.close();
});

async function load(path: string): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    const off = target.transport.on('Page.loadEventFired', () => {
      off();
      resolve();
    });
  });
  await target.transport.send('Page.navigate', { url: site.url(path) });
  await loaded;
}

async function evaluate<T>(expression: string): Promise<T> {
  const answer = await target.transport.send<{ result: { value: T } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  return answer.result.value;
}

/** The element listed with this role and label. */
function listed(snapshot: DriverSnapshot, role: string, label: string): DriverElement {
  const found = snapshot.elements.find((e) => e.role === role && e.label === label);
  if (!found) throw new Error(`no ${role} "${label}" in ${snapshot.elements.map((e) => `${e.role} "${e.label}"`).join(', ')}`);
  return found;
}

const act = (element: DriverElement, op: 'click' | 'press', key?: string) => driver.act({ nodeKey: element.nodeKey, op, key }, element);
const focusedText = () => evaluate<string>('document.activeElement.textContent.trim()');

/** Chromium's accessible name and role of each listed element (its own accessibility tree). */
async function chromiumNames(snapshot: DriverSnapshot): Promise<Array<{ role: string; label: string; chromium: string; chromiumRole: string }>> {
  const tree = await target.transport.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree');
  const { executionContextId } = await target.transport.send<{ executionContextId: number }>('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: 'cutright' });
  const out = [];
  for (const element of snapshot.elements) {
    const handle = await target.transport.send<{ result: { objectId: string } }>('Runtime.callFunctionOn', {
      functionDeclaration: `function (key) { return globalThis.${AGENT_GLOBAL}.element(key); }`,
      executionContextId,
      arguments: [{ value: element.nodeKey }],
    });
    const ax = await target.transport.send<{ nodes: Array<{ name?: { value?: string }; role?: { value?: string } }> }>('Accessibility.getPartialAXTree', {
      objectId: handle.result.objectId,
      fetchRelatives: false,
    });
    const node = ax.nodes[0];
    out.push({ role: element.role, label: element.label, chromium: (node?.name?.value ?? '').replace(/\s+/g, ' ').trim(), chromiumRole: node?.role?.value ?? '' });
  }
  return out;
}

/** Listed names equal Chromium's, but for live regions, which the snapshot lists with their text. */
async function expectBrowserNames(snapshot: DriverSnapshot): Promise<void> {
  const names = await chromiumNames(snapshot);
  const differing = names.filter((n) => n.role !== 'status' && n.role !== 'alert' && n.label !== n.chromium);
  expect(differing).toEqual([]);
}

beforeEach(async () => {
  await target.transport.send('Accessibility.enable');
});

describe('grid', () => {
  it('lists cells, rows and focusable headers; a click focuses a cell and arrow keys walk the grid', async () => {
    await load('/grid');
    const snapshot = await driver.snapshot();
    expect(listed(snapshot, 'columnheader', 'Email').ops).toEqual(['click', 'press']);
    listed(snapshot, 'row', 'Alan Turing alan@example.com Wilmslow');
    await expectBrowserNames(snapshot);
    // Task: from Ada's email, walk down two rows and right one cell, and pick it.
    const email = listed(snapshot, 'gridcell', 'ada@example.com');
    await act(email, 'click');
    expect(await focusedText()).toBe('ada@example.com');
    await act(email, 'press', 'ArrowDown');
    expect(await focusedText()).toBe('alan@example.com');
    const alan = listed(await driver.snapshot(), 'gridcell', 'alan@example.com');
    await act(alan, 'press', 'ArrowDown');
    const grace = listed(await driver.snapshot(), 'gridcell', 'grace@example.com');
    await act(grace, 'press', 'ArrowRight');
    expect(await focusedText()).toBe('Arlington');
    const arlington = listed(await driver.snapshot(), 'gridcell', 'Arlington');
    await act(arlington, 'press', 'Enter');
    expect(listed(await driver.snapshot(), 'status', 'Picked Arlington')).toBeTruthy();
  });
});

describe('tree grid', () => {
  it('expands a folder row with ArrowRight and reaches its child rows', async () => {
    await load('/treegrid');
    const snapshot = await driver.snapshot();
    await expectBrowserNames(snapshot);
    expect(snapshot.elements.some((e) => e.label.startsWith('Re: Launch'))).toBe(false);
    const inbox = listed(snapshot, 'row', 'Inbox 3 unread');
    await act(inbox, 'click');
    await act(inbox, 'press', 'ArrowRight');
    expect(await evaluate('document.querySelector("[data-id=inbox]").getAttribute("aria-expanded")')).toBe('true');
    await act(inbox, 'press', 'ArrowDown');
    expect(await focusedText()).toBe('Re: LaunchAda');
    const after = await driver.snapshot();
    listed(after, 'row', 'Re: Launch Ada');
    listed(after, 'gridcell', 'Minutes');
  });
});

describe('tree view', () => {
  it('names tree items without their nested groups or hidden buttons, and walks the tree with arrows', async () => {
    await load('/tree');
    const snapshot = await driver.snapshot();
    await expectBrowserNames(snapshot);
    const projects = listed(snapshot, 'treeitem', 'Projects');
    await act(projects, 'click');
    const open = await driver.snapshot();
    await expectBrowserNames(open);
    expect(open.elements.filter((e) => e.role === 'treeitem').map((e) => e.label)).toEqual(['Projects', 'project-1.docx', 'project-2.docx', 'Project 3', 'Notes.txt']);
    // Task: open the second project file with the keyboard.
    await act(listed(open, 'treeitem', 'Projects'), 'press', 'ArrowDown');
    expect(await focusedText()).toBe('project-1.docx');
    await act(listed(open, 'treeitem', 'project-1.docx'), 'press', 'ArrowDown');
    await act(listed(open, 'treeitem', 'project-2.docx'), 'press', 'Enter');
    expect(await evaluate('document.querySelector("[aria-selected=true]").firstChild.textContent.trim()')).toBe('project-2.docx');
    listed(await driver.snapshot(), 'status', 'Opened project-2.docx');
  });
});

describe('date picker dialog', () => {
  it('opens the calendar, walks it with arrow keys and picks a date into the field', async () => {
    await load('/datepicker');
    await act(find(await driver.snapshot(), 'Choose date'), 'click');
    const calendar = await driver.snapshot();
    await expectBrowserNames(calendar);
    // Task: pick Friday 18 December: click the 10th, then one week down and one day right.
    const tenth = listed(calendar, 'gridcell', '10');
    await act(tenth, 'click');
    expect(await focusedText()).toBe('10');
    await act(tenth, 'press', 'ArrowDown');
    expect(await focusedText()).toBe('17');
    const seventeenth = listed(await driver.snapshot(), 'gridcell', '17');
    await act(seventeenth, 'press', 'ArrowRight');
    expect(await focusedText()).toBe('18');
    await act(listed(await driver.snapshot(), 'gridcell', '18'), 'press', 'Enter');
    expect(await evaluate('document.getElementById("date").value')).toBe('2026-12-18');
    expect(await evaluate('document.getElementById("dialog").hidden')).toBe(true);
  });
});

describe('combobox with a grid popup', () => {
  it('lists the popup grid’s cells after typing, and clicking one fills the field', async () => {
    await load('/combobox');
    const field = listed(await driver.snapshot(), 'combobox', 'Fruit');
    expect(field.ops).toEqual(['click', 'type', 'press']);
    await driver.act({ nodeKey: field.nodeKey, op: 'type', text: 'ap' }, field);
    const suggestions = await driver.snapshot();
    await expectBrowserNames(suggestions);
    listed(suggestions, 'row', 'Apple Red');
    await act(listed(suggestions, 'gridcell', 'Apricot'), 'click');
    expect(await evaluate('document.getElementById("fruit").value')).toBe('Apricot');
    expect(await evaluate('document.getElementById("suggestions").hidden')).toBe(true);
  });
});
