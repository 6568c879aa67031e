// Turns a development build into a release build (HOST-SPEC section 6): the fixture page and
// the fixture id are taken out, test support is dropped, the launcher refuses --fixtures, and
// the result is searched to prove that nothing in it mentions the fixture.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What no file of a release build may contain: the fixture's id, its name (the page's title and
 * heading), the page's file name, and text only the page holds (its "Go private" button's id).
 */
export const FIXTURE_MARKERS = ['app.orthiclabs.demo-fixture', 'Demo Fixture', 'fixture.html', 'go-private'];

/** Compiled test support: only tests import it, and it names the fixture. */
export const TEST_SUPPORT = /(\.test|\.test-support)\.(js|cjs|mjs)$/;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Files under `dir` that mention the fixture, each with the marker found. */
export function findFixtureMentions(dir) {
  const found = [];
  for (const file of files(dir)) {
    const text = readFileSync(file, 'latin1');
    for (const marker of FIXTURE_MARKERS) if (text.includes(marker)) found.push({ file, marker });
  }
  return found;
}

/** Throws unless `dir` holds a release build: flagged as one, and nothing in it mentions the fixture. */
export function assertReleaseBuild(dir) {
  const flavor = path.join(dir, 'src', 'launcher', 'build-flavor.js');
  if (!existsSync(flavor) || !/RELEASE_BUILD = true/.test(readFileSync(flavor, 'utf8'))) {
    throw new Error(`${dir} is not a release build (${flavor} does not set RELEASE_BUILD = true): run \`node scripts/build.mjs --release\` first`);
  }
  const mentions = findFixtureMentions(dir);
  if (mentions.length > 0) {
    throw new Error(`the release build in ${dir} still mentions the fixture: ${mentions.map((m) => `${path.relative(dir, m.file)} (${m.marker})`).join(', ')}`);
  }
}

export function makeRelease(dist) {
  rmSync(path.join(dist, 'src', 'targets', 'fixture'), { recursive: true, force: true });
  writeFileSync(path.join(dist, 'src', 'contract', 'fixture-id.js'), '// Release build: there is no fixture app.\nexport const FIXTURE_APP_ID = null;\n');
  writeFileSync(path.join(dist, 'src', 'launcher', 'build-flavor.js'), 'export const RELEASE_BUILD = true;\n');
  // Source maps point back at the sources, which do name the fixture: drop them, and the
  // comments that point at them.
  for (const file of files(dist)) {
    if (file.endsWith('.map') || TEST_SUPPORT.test(file)) rmSync(file);
    else if (/\.(js|cjs|mjs)$/.test(file)) {
      const text = readFileSync(file, 'utf8');
      const bare = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      if (bare !== text) writeFileSync(file, bare);
    }
  }
  // Nothing that ships may import the test support just removed.
  for (const file of files(dist)) {
    if (/\.test-support/.test(readFileSync(file, 'latin1'))) throw new Error(`${path.relative(dist, file)} refers to test support, which a release build leaves out`);
  }
  assertReleaseBuild(dist);
}
