// Types of build-preloads.mjs for the TypeScript tests that use it.
export const PRELOAD_SOURCES: string;
export function preloadRoles(): string[];
export function bundlePreload(role: string): string;
export function buildPreloads(outDir: string): string[];
