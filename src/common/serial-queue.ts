// Runs async tasks one at a time, in the order they were queued: a session's calls (one page,
// one pointer, one keyboard) and a bundle's writes (one append-only file) both need that.

/** A FIFO of async tasks; each starts once every earlier one has settled, whether it succeeded or not. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Queues `task` and settles with it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
