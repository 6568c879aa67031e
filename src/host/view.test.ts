// The view's publisher: a new listener gets the view at once; a burst of changes within one
// event-loop turn costs one rebuild; an urgent publish (the kill control) goes out now.
import { describe, expect, it } from 'vitest';
import type { HostView } from '../ui-protocol/index.js';
import { ViewPublisher } from './view.js';

function counting() {
  let builds = 0;
  const project = (): HostView => ({ demoMode: true, consent: null, consentQueue: builds++, live: [], bundlesVersion: 0, problems: [] });
  return { project, builds: () => builds };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('ViewPublisher', () => {
  it('sends the view to a new listener at once, then coalesces 3,000 changes into one rebuild', async () => {
    const { project, builds } = counting();
    const publisher = new ViewPublisher(project, () => {});
    const seen: HostView[] = [];
    const dispose = publisher.subscribe((view) => seen.push(view));
    expect(seen).toHaveLength(1);
    for (let i = 0; i < 3000; i++) publisher.changed();
    expect(builds()).toBe(1);
    await turn();
    expect(builds()).toBe(2);
    expect(seen).toHaveLength(2);
    dispose();
    publisher.changed();
    await turn();
    expect(builds()).toBe(2);
  });

  it('publish() goes out now and takes the pending change with it', async () => {
    const { project, builds } = counting();
    const publisher = new ViewPublisher(project, () => {});
    const seen: HostView[] = [];
    publisher.subscribe((view) => seen.push(view));
    publisher.changed();
    publisher.publish();
    expect(seen).toHaveLength(2);
    await turn();
    expect(builds()).toBe(2);
  });

  it('a listener that throws is logged and does not stop the others', () => {
    const logs: string[] = [];
    const publisher = new ViewPublisher(counting().project, (m) => logs.push(m));
    let calls = 0;
    publisher.subscribe(() => {
      if (calls++ > 0) throw new Error('boom');
    });
    const seen: HostView[] = [];
    publisher.subscribe((view) => seen.push(view));
    publisher.publish();
    expect(seen).toHaveLength(2);
    expect(logs.join()).toMatch(/boom/);
  });
});
