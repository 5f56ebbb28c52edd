import { describe, expect, it } from 'vitest';
import { runFacts, withSection } from './bench-figures';

describe('the generated figures file', () => {
  it('adds a bench’s section the first time, under the file’s header', () => {
    const document = withSection('', 'bench:http', 'facts A', 'ratio 1.2x');
    expect(document).toMatch(/^# Benchmark figures/);
    expect(document).toContain('<!-- bench:http -->\n## `npm run bench:http`\n\nfacts A\n\n```text\nratio 1.2x\n```\n<!-- /bench:http -->');
  });

  it('replaces a bench’s own section, leaving the others as they were, in their order', () => {
    const first = withSection(withSection('', 'bench', 'facts 1', 'memory 10'), 'bench:http', 'facts 2', 'ratio 1.2x');
    const again = withSection(first, 'bench', 'facts 3', 'memory 11\n\n');
    expect(again).not.toContain('memory 10');
    expect(again.match(/<!-- bench -->/g)).toHaveLength(1);
    expect(again.indexOf('memory 11')).toBeLessThan(again.indexOf('ratio 1.2x'));
    expect(again).toContain('facts 3');
    expect(again).toContain('ratio 1.2x');
  });

  it('keeps no terminal colour codes', () => {
    expect(withSection('', 'bench', 'f', '\x1b[32mok\x1b[39m')).toContain('```text\nok\n```');
  });

  it('says when, at which commit and on what machine', () => {
    expect(runFacts(new Date('2026-11-28T12:34:56Z'))).toMatch(/^2026-11-28 12:34 UTC, commit \S+.*, \d+ × .+, \d+ GiB, Node \d+/);
  });
});
