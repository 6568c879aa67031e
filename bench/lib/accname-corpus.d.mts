// Types of accname-corpus.mjs, for the TypeScript test that uses it.
import type { DemoClient } from '../../src/client/client.js';
import type { CdpTransport } from '../../src/targets/types.js';

export interface Compared {
  test: string;
  expected: string;
  label: string;
}
export const CORPUS_DIR: string;
export const EXCEPTIONS: Record<string, string>;
export function corpusPages(): string[];
export function declared(html: string): string;
export function corpusTable(): Record<string, string>;
export function normalized(expected: string): string;
export function listedWithExpectations(client: DemoClient, token: string, transport: CdpTransport, origin: string): Promise<Compared[]>;
export function compareCorpus(client: DemoClient, token: string, transport: CdpTransport, url: string): Promise<Compared[]>;
