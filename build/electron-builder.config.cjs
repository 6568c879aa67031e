// electron-builder's configuration for `npm run dist` (after `node scripts/build.mjs --release`):
// macOS dmg + zip (hardened runtime, entitlements), Windows NSIS, Linux AppImage + deb.
// The app is dist/ (a release build: no fixture, see HOST-SPEC section 6) and package.json;
// production dependencies come from node_modules as electron-builder resolves them.
// It runs only where Electron's binary can be downloaded.

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.orthiclabs.cutright',
  productName: 'CutRight',
  copyright: 'Copyright © Orthic Labs',
  directories: {
    output: 'release',
    buildResources: 'build',
  },
  files: [
    'package.json',
    'dist/**',
    // Source maps name the sources; the fixture and test support never ship (scripts/release.mjs
    // also removes them; scripts/release.test.mjs checks these patterns with electron-builder's
    // own matcher).
    '!dist/**/*.map',
    '!dist/src/targets/fixture{,/**}',
    '!**/*.test.*',
    '!**/*.test-support.*',
  ],
  // Refuses to package a development build: dist/ must be a release build that mentions no
  // fixture (HOST-SPEC section 6), whatever the patterns above let through.
  beforePack: async () => {
    const { assertReleaseBuild } = await import('../scripts/release.mjs');
    assertReleaseBuild(`${__dirname}/../dist`);
  },
  extraMetadata: {
    main: 'dist/electron/main.js',
  },
  asar: true,
  icon: 'build/icon.png',
  // The app never runs a server on the network and loads no remote code; keep Electron's
  // own hardening switches on (fuses, where this electron-builder version supports them).
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  },
  mac: {
    target: ['dmg', 'zip'],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
  },
  dmg: {
    title: 'CutRight ${version}',
  },
  win: {
    target: ['nsis'],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
  },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Orthic Labs',
    synopsis: 'Lets an AI agent record a demo of an app, only with your consent',
  },
};
