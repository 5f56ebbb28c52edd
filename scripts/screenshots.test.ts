import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README_SCREENSHOTS, readmeScreenshotNames } from '../e2e/readme-screenshots';

describe('the README’s screenshots', () => {
  it('are exactly the ones `npm run screenshots` takes and copies', () => {
    expect(readmeScreenshotNames(readFileSync('README.md', 'utf8')).sort()).toEqual([...README_SCREENSHOTS].sort());
  });

  it('are each taken by e2e/screenshots.spec.ts under its name', () => {
    const spec = readFileSync('e2e/screenshots.spec.ts', 'utf8');
    for (const name of README_SCREENSHOTS) expect(spec, name).toMatch(new RegExp(`readme\\('${name}'`));
  });
});
