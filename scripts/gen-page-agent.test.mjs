// The injected page agent is generated from its TypeScript: the committed module must match
// what the generator makes from the sources now (a stale one would inject old code).
import { describe, expect, it } from 'vitest';
import { agentSource, isCurrent } from './gen-page-agent.mjs';

describe('page agent generation', () => {
  it('the committed page-agent.generated.ts is current (run node scripts/gen-page-agent.mjs)', () => {
    expect(isCurrent()).toBe(true);
  });

  it('makes one function declaration taking the secure tokens and returning the install', () => {
    const source = agentSource();
    expect(source.startsWith('function installCutrightAgent(secureTokens) {\n"use strict";\n')).toBe(true);
    expect(source.trimEnd().endsWith('return pageAgent.install(secureTokens);\n}')).toBe(true);
    // It parses as a function expression, as Runtime.callFunctionOn takes it.
    expect(() => new Function(`return (${source});`)).not.toThrow();
  });
});
