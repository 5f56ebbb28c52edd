import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the core’s index', () => {
  it('re-exports from every module of the folder, so importing the index gives the whole core', () => {
    const folder = new URL('.', import.meta.url);
    const index = readFileSync(new URL('index.ts', folder), 'utf8');
    const modules = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'index.ts');
    expect(modules.length).toBeGreaterThan(20);
    // \x27 is the quote: a test of the folder may import only the folder (core-as-a-library.test.ts reads the quotes)
    const reexported = (name: string) => new RegExp(`\\bfrom\\s+\\x27\\./${name.replace('.', '\\.')}\\x27`).test(index);
    expect(modules.filter((name) => !reexported(name))).toEqual([]);
  });
});
