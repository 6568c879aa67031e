// Shared by the driver's tests: finding an element by label, and what a failing call threw.
import { ToolError } from '../contract/errors.js';
import type { DriverElement, DriverSnapshot } from './types.js';

export function labels(snapshot: DriverSnapshot): string[] {
  return snapshot.elements.map((element) => element.label);
}

export function find(snapshot: DriverSnapshot, label: string): DriverElement {
  const found = snapshot.elements.find((element) => element.label === label);
  if (!found) throw new Error(`no element labelled ${label} in ${JSON.stringify(labels(snapshot))}`);
  return found;
}

/** The contract code and message a call failed with ('plain Error' for a non-ToolError). */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return { code: error.code, message: error.message };
    return { code: 'plain Error', message: error instanceof Error ? error.message : String(error) };
  }
  throw new Error('expected the call to fail');
}
