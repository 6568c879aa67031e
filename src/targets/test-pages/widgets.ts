// Widget pages after the ARIA Authoring Practices patterns (grid, treegrid, tree view, date
// picker dialog, combobox with a grid popup), small but with the patterns' keyboard behaviour
// (roving tabindex, arrow keys), for the driver's tests.
const HEAD = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="cutright-capture-state" content="safe">
<style>body{font:14px sans-serif;margin:1rem} [aria-selected=true]{background:#cde} [role=gridcell]:focus,[role=row]:focus,[role=treeitem]:focus{outline:2px solid #36c}
[role=group][hidden]{display:none} td,th{padding:2px 6px}</style>`;

/** Moves focus in a grid of rows × cells with the arrow keys (roving tabindex). */
const GRID_KEYS = `
function gridKeys(grid, cellSelector) {
  grid.addEventListener('keydown', (e) => {
    const rows = [...grid.querySelectorAll('tr, [role=row]')].filter((r) => r.querySelector(cellSelector));
    const cell = e.target.closest(cellSelector);
    if (!cell) return;
    const r = rows.findIndex((row) => row.contains(cell));
    const cells = [...rows[r].querySelectorAll(cellSelector)];
    const c = cells.indexOf(cell);
    const to = { ArrowRight: [r, c + 1], ArrowLeft: [r, c - 1], ArrowDown: [r + 1, c], ArrowUp: [r - 1, c] }[e.key];
    if (!to) return;
    e.preventDefault();
    const row = rows[Math.max(0, Math.min(rows.length - 1, to[0]))];
    const next = [...row.querySelectorAll(cellSelector)][Math.max(0, Math.min(cells.length - 1, to[1]))];
    if (!next) return;
    cell.tabIndex = -1; next.tabIndex = 0; next.focus();
  });
}`;

export const GRID_PAGE = `${HEAD}<title>Data grid</title></head><body>
<h1>Contacts</h1>
<table role="grid" aria-label="Contacts" id="grid">
<thead><tr><th role="columnheader" tabindex="-1">Name</th><th role="columnheader" tabindex="-1">Email</th><th role="columnheader" tabindex="-1">City</th></tr></thead>
<tbody>
<tr><td tabindex="0">Ada Lovelace</td><td tabindex="-1">ada@example.com</td><td tabindex="-1">London</td></tr>
<tr><td tabindex="-1">Alan Turing</td><td tabindex="-1">alan@example.com</td><td tabindex="-1">Wilmslow</td></tr>
<tr><td tabindex="-1">Grace Hopper</td><td tabindex="-1">grace@example.com</td><td tabindex="-1">Arlington</td></tr>
</tbody></table>
<p role="status" id="picked"></p>
<script>${GRID_KEYS}
const grid = document.getElementById('grid');
gridKeys(grid, 'td, th');
grid.addEventListener('keydown', (e) => { if (e.key === 'Enter') document.getElementById('picked').textContent = 'Picked ' + e.target.textContent; });
</script></body></html>`;

export const TREEGRID_PAGE = `${HEAD}<title>Tree grid</title></head><body>
<h1>Mail</h1>
<table role="treegrid" aria-label="Folders" id="tg">
<tbody>
<tr role="row" aria-level="1" aria-expanded="false" tabindex="0" data-id="inbox"><td role="gridcell">Inbox</td><td role="gridcell">3 unread</td></tr>
<tr role="row" aria-level="2" tabindex="-1" data-parent="inbox" hidden><td role="gridcell">Re: Launch</td><td role="gridcell">Ada</td></tr>
<tr role="row" aria-level="2" tabindex="-1" data-parent="inbox" hidden><td role="gridcell">Minutes</td><td role="gridcell">Alan</td></tr>
<tr role="row" aria-level="1" tabindex="-1"><td role="gridcell">Sent</td><td role="gridcell">0 unread</td></tr>
</tbody></table>
<script>
const tg = document.getElementById('tg');
function visibleRows() { return [...tg.querySelectorAll('tr[role=row]')].filter((r) => !r.hidden); }
function setExpanded(row, open) {
  row.setAttribute('aria-expanded', String(open));
  tg.querySelectorAll('[data-parent="' + row.dataset.id + '"]').forEach((child) => { child.hidden = !open; });
}
tg.addEventListener('keydown', (e) => {
  const row = e.target.closest('tr');
  if (!row || e.target !== row) return;
  const rows = visibleRows();
  const i = rows.indexOf(row);
  let next = null;
  if (e.key === 'ArrowDown') next = rows[i + 1];
  if (e.key === 'ArrowUp') next = rows[i - 1];
  if (e.key === 'ArrowRight' && row.getAttribute('aria-expanded') === 'false') setExpanded(row, true);
  if (e.key === 'ArrowLeft' && row.getAttribute('aria-expanded') === 'true') setExpanded(row, false);
  if (next) { e.preventDefault(); row.tabIndex = -1; next.tabIndex = 0; next.focus(); }
});
tg.addEventListener('click', (e) => { const row = e.target.closest('tr'); if (row) { tg.querySelectorAll('tr').forEach((r) => (r.tabIndex = -1)); row.tabIndex = 0; row.focus(); } });
</script></body></html>`;

export const TREE_PAGE = `${HEAD}<title>File tree</title></head><body>
<h1>Files</h1>
<ul role="tree" aria-label="Files" id="tree">
  <li role="treeitem" aria-expanded="false" tabindex="0" id="projects"><span>Projects</span>
    <ul role="group" hidden>
      <li role="treeitem" tabindex="-1">project-1.docx</li>
      <li role="treeitem" tabindex="-1">project-2.docx<button type="button" hidden>Delete</button></li>
      <li role="treeitem" aria-expanded="false" tabindex="-1"><span>Project 3</span>
        <ul role="group" hidden><li role="treeitem" tabindex="-1">project-3A.docx</li></ul>
      </li>
    </ul>
  </li>
  <li role="treeitem" tabindex="-1">Notes.txt</li>
</ul>
<p role="status" id="opened"></p>
<script>
const tree = document.getElementById('tree');
function shown() { return [...tree.querySelectorAll('[role=treeitem]')].filter((t) => t.checkVisibility()); }
function toggle(item, open) {
  const group = item.querySelector(':scope > [role=group]');
  if (!group) return;
  item.setAttribute('aria-expanded', String(open));
  group.hidden = !open;
}
function focusItem(from, to) { if (!to) return; from.tabIndex = -1; to.tabIndex = 0; to.focus(); }
tree.addEventListener('click', (e) => {
  const item = e.target.closest('[role=treeitem]');
  if (!item) return;
  e.stopPropagation();
  if (item.hasAttribute('aria-expanded')) toggle(item, item.getAttribute('aria-expanded') === 'false');
  tree.querySelectorAll('[role=treeitem]').forEach((t) => (t.tabIndex = -1));
  item.tabIndex = 0; item.focus();
});
tree.addEventListener('keydown', (e) => {
  const item = e.target.closest('[role=treeitem]');
  const items = shown();
  const i = items.indexOf(item);
  if (e.key === 'ArrowDown') { e.preventDefault(); focusItem(item, items[i + 1]); }
  if (e.key === 'ArrowUp') { e.preventDefault(); focusItem(item, items[i - 1]); }
  if (e.key === 'ArrowRight' && item.getAttribute('aria-expanded') === 'false') toggle(item, true);
  if (e.key === 'ArrowLeft' && item.getAttribute('aria-expanded') === 'true') toggle(item, false);
  if (e.key === 'Enter') {
    tree.querySelectorAll('[aria-selected]').forEach((t) => t.removeAttribute('aria-selected'));
    item.setAttribute('aria-selected', 'true');
    document.getElementById('opened').textContent = 'Opened ' + item.firstChild.textContent.trim();
  }
});
</script></body></html>`;

export const DATEPICKER_PAGE = `${HEAD}<title>Date picker</title></head><body>
<h1>Booking</h1>
<label for="date">Date</label> <input id="date" type="text" placeholder="YYYY-MM-DD">
<button type="button" id="open">Choose date</button>
<div role="dialog" aria-modal="true" aria-label="Choose date" id="dialog" hidden>
  <h2 id="month">December 2026</h2>
  <table role="grid" aria-labelledby="month" id="days"><thead><tr>
  ${['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'].map((d) => `<th scope="col">${d}</th>`).join('')}</tr></thead><tbody></tbody></table>
  <button type="button" id="cancel">Cancel</button>
</div>
<script>
const days = document.querySelector('#days tbody');
// December 2026 starts on a Tuesday.
let html = '', day = 1 - 2;
for (let w = 0; w < 5; w++) {
  html += '<tr>';
  for (let d = 0; d < 7; d++, day++) html += day >= 1 && day <= 31 ? '<td tabindex="-1" data-date="2026-12-' + String(day).padStart(2, '0') + '">' + day + '</td>' : '<td></td>';
  html += '</tr>';
}
days.innerHTML = html;
const dialog = document.getElementById('dialog');
const input = document.getElementById('date');
function cells() { return [...days.querySelectorAll('td[data-date]')]; }
function focusCell(cell) { cells().forEach((c) => (c.tabIndex = -1)); cell.tabIndex = 0; cell.focus(); }
function choose(cell) {
  cells().forEach((c) => c.removeAttribute('aria-selected'));
  cell.setAttribute('aria-selected', 'true');
  input.value = cell.dataset.date;
  dialog.hidden = true;
  document.getElementById('open').focus();
}
document.getElementById('open').addEventListener('click', () => { dialog.hidden = false; focusCell(cells()[0]); });
document.getElementById('cancel').addEventListener('click', () => { dialog.hidden = true; });
days.addEventListener('click', (e) => { const cell = e.target.closest('td[data-date]'); if (cell) focusCell(cell); });
days.addEventListener('keydown', (e) => {
  const list = cells();
  const i = list.indexOf(e.target);
  if (i < 0) return;
  const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 7, ArrowUp: -7 }[e.key];
  if (step) { e.preventDefault(); const next = list[i + step]; if (next) focusCell(next); }
  if (e.key === 'Enter') { e.preventDefault(); choose(e.target); }
});
</script></body></html>`;

export const COMBOBOX_GRID_PAGE = `${HEAD}<title>Fruit picker</title></head><body>
<h1>Order</h1>
<label for="fruit">Fruit</label>
<input id="fruit" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="suggestions" aria-haspopup="grid">
<div role="grid" id="suggestions" aria-label="Fruit suggestions" hidden></div>
<script>
const FRUITS = [['Apple', 'Red'], ['Apricot', 'Orange'], ['Banana', 'Yellow'], ['Blueberry', 'Blue']];
const input = document.getElementById('fruit');
const grid = document.getElementById('suggestions');
input.addEventListener('input', () => {
  const query = input.value.toLowerCase();
  const hits = query ? FRUITS.filter(([name]) => name.toLowerCase().startsWith(query)) : [];
  grid.innerHTML = hits.map(([name, colour], i) => '<div role="row" id="r' + i + '"><div role="gridcell" data-name="' + name + '">' + name + '</div><div role="gridcell">' + colour + '</div></div>').join('');
  grid.hidden = hits.length === 0;
  input.setAttribute('aria-expanded', String(hits.length > 0));
});
grid.addEventListener('click', (e) => {
  const cell = e.target.closest('[role=gridcell]');
  if (!cell) return;
  input.value = cell.closest('[role=row]').querySelector('[data-name]').dataset.name;
  grid.hidden = true;
  input.setAttribute('aria-expanded', 'false');
});
</script></body></html>`;
