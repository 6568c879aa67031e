// A long export's progress on the command line, on stderr (stdout stays for results): a bar
// redrawn in place on a terminal, and a plain line at every tenth elsewhere (a log, CI), so a
// pipe never fills with carriage returns. A dozen lines: no library needed for it.

export interface ProgressSink {
  /** The part done, 0 to 1. */
  update(done: number): void;
  /** Ends the bar's line. */
  end(): void;
}

const WIDTH = 30;

export function progressSink(stream: NodeJS.WritableStream & { isTTY?: boolean }, label: string, now: () => number = Date.now): ProgressSink {
  const started = now();
  let lastTenth = -1;
  let lastDrawn = -1;
  let drawn = false;
  return {
    update(done) {
      const part = Math.min(1, Math.max(0, done));
      const percent = Math.floor(part * 100);
      if (stream.isTTY) {
        if (percent === lastDrawn) return;
        lastDrawn = percent;
        const filled = Math.round(part * WIDTH);
        const seconds = ((now() - started) / 1000).toFixed(1);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(percent).padStart(3)}% ${seconds}s`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(part * 10);
      if (tenth <= lastTenth) return;
      lastTenth = tenth;
      stream.write(`${label}: ${tenth * 10}%\n`);
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
