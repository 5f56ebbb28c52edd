import { describe, expect, it } from 'vitest';
import { loadNote, runFacts, withSection } from './bench-figures';

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

  it('says when, at which commit, on what machine and how busy it was', () => {
    expect(runFacts(new Date('2026-11-28T12:34:56Z'), 0.1)).toMatch(
      /^2026-11-28 12:34 UTC, commit \S+.*, \d+ × .+, \d+ GiB, Node \d+[^;]*; load average 0\.10 on \d+ cores when it started/,
    );
  });

  it('says the machine was busy when other work held a quarter of its cores or more as the bench started', () => {
    expect(loadNote(0.4, 2)).toMatch(/otherwise quiet$/);
    expect(loadNote(0.5, 2)).toMatch(/^load average 0\.50 on 2 cores when it started: the machine was busy with other work/);
    expect(loadNote(2.1, 2)).toMatch(/ratios to references measured in the same run are the fairer figures$/);
  });
});
