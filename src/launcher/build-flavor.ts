/**
 * Whether this is a release build. The release build (scripts/build.mjs --release) rewrites
 * this file's compiled output to `true` and leaves the fixture out of dist/.
 */
export const RELEASE_BUILD: boolean = false;
