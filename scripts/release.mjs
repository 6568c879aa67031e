// Turns a development build in dist/ into a release build (HOST-SPEC section 6): the fixture
// page and the fixture id are taken out, the launcher refuses --fixtures, and the result is
// searched to prove that nothing in it mentions the fixture.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const FIXTURE_MARKERS = ['app.orthiclabs.demo-fixture', 'Demo Fixture'];

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Files under `dir` that mention the fixture, with the marker found. */
export function findFixtureMentions(dir) {
  const found = [];
  for (const file of files(dir)) {
    const text = readFileSync(file, 'latin1');
    for (const marker of FIXTURE_MARKERS) if (text.includes(marker)) found.push({ file, marker });
  }
  return found;
}

export function makeRelease(dist) {
  rmSync(path.join(dist, 'src', 'targets', 'fixture'), { recursive: true, force: true });
  writeFileSync(
    path.join(dist, 'src', 'contract', 'fixture-id.js'),
    '// Release build: there is no fixture app.\nexport const FIXTURE_APP_ID = null;\n',
  );
  writeFileSync(path.join(dist, 'src', 'launcher', 'build-flavor.js'), 'export const RELEASE_BUILD = true;\n');
  // Source maps point back at the sources, which do name the fixture.
  for (const file of files(dist)) if (file.endsWith('.map')) rmSync(file);
  const mentions = findFixtureMentions(dist);
  if (mentions.length > 0) {
    throw new Error(`release build still mentions the fixture: ${mentions.map((m) => `${m.file} (${m.marker})`).join(', ')}`);
  }
}
