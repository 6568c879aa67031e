// Picks CutRight's own arguments out of Electron's process.argv, for parseLaunchArgs (the
// same options as the `cutright` launcher, which hands them over unchanged minus --ui).
//   development: [electron, ...electron switches, <app path>, ...cutright args]
//   packaged:    [CutRight, ...cutright args]

/** Switches meant for Electron or Chromium, not for CutRight; they may appear after the app path. */
const ENGINE_SWITCHES = [
  /^--no-sandbox$/,
  /^--disable-gpu$/,
  /^--disable-dev-shm-usage$/,
  /^--enable-logging(=.*)?$/,
  /^--v=\d+$/,
  /^--inspect(-brk)?(=.*)?$/,
  /^--remote-debugging-port=\d+$/,
  /^--ozone-platform(-hint)?=.*$/,
  /^--enable-features=.*$/,
  /^--disable-features=.*$/,
  /^--lang=.*$/,
  // macOS Finder's process serial number, given to apps started by double-click.
  /^-psn_\d+_\d+$/,
];

export function cutrightArgv(argv: readonly string[], isPackaged: boolean): string[] {
  let rest: string[];
  if (isPackaged) {
    rest = argv.slice(1);
  } else {
    // Electron's own rule: the app path is the first argument that is not a switch.
    const appIndex = argv.findIndex((arg, index) => index > 0 && !arg.startsWith('-'));
    rest = appIndex === -1 ? [] : argv.slice(appIndex + 1);
  }
  const out: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (ENGINE_SWITCHES.some((pattern) => pattern.test(arg))) continue;
    // --ui chose this shell already.
    if (arg === '--ui') {
      i += 1;
      continue;
    }
    if (arg.startsWith('--ui=')) continue;
    out.push(arg);
  }
  return out;
}
