import { describe, expect, it } from 'vitest';
import { CASES } from './cases';
import type { Verdict } from './judge';
import { escapeMarkup, htmlReport, junitXml, progressLine, textTable } from './reports';
import type { CaseResult } from './run-case';
import type { RunReport } from './runner';

const HOSTILE = '<script>alert("x")</script> & \u0007';

function result(id: string, verdict: Verdict, more: Partial<CaseResult> = {}): CaseResult {
  return {
    testCase: CASES.find((testCase) => testCase.id === id)!,
    verdict,
    canary: 'CanaryQwertyui',
    startedAt: 0,
    durationMs: 1234,
    finalUrl: 'http://127.0.0.1:8000/callback',
    jwksFetches: [],
    navigations: [],
    ...more,
  };
}

const report: RunReport = {
  options: {
    clientId: 'my-rp',
    startUrl: 'http://127.0.0.1:8000/',
    emulator: 'http://localhost:3000/emulator',
    persona: 'ingrid-haugen',
    jwksCooldownSeconds: 60,
    caseTimeoutSeconds: 60,
    outDir: '/tmp/x',
  },
  startedAt: Date.UTC(2026, 10, 24, 12),
  endedAt: Date.UTC(2026, 10, 24, 12, 1, 30),
  results: [
    result('normal', { status: 'pass', reason: 'Accepted.' }, { screenshot: 'normal.png' }),
    result(
      'wrong_nonce',
      { status: 'fail', reason: `Accepted what it must refuse: ${HOSTILE}` },
      {
        finalUrl: `http://127.0.0.1:8000/?q=${HOSTILE}`,
        flow: {
          state: 's',
          client_id: 'my-rp',
          started_at: 0,
          faults: [{ id: 'wrong_nonce', at: 0, chosen: 'flow' }],
          events: [{ at: 0, step: 'id_token', outcome: 'fault', summary: 'ID token issued', details: { nonce: HOSTILE } }],
        },
      },
    ),
    result(
      'wrong_state',
      { status: 'error', reason: 'The case did not end within 60 s.' },
      {
        startControl: `button "Start ${HOSTILE}"`,
        finalTitle: `Failed ${HOSTILE}`,
        screenshotNote: 'the whole page was larger than 5 MB; the screenshot is of the viewport',
      },
    ),
    result('picture_not_image', { status: 'not_applicable', reason: 'The relying party did not request picture.' }),
  ],
};

describe('the reports', () => {
  it('escape markup, and drop characters XML cannot hold', () => {
    expect(escapeMarkup(HOSTILE)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ');
  });

  it('print one line per case as it ends', () => {
    expect(progressLine(2, 57, report.results[1]!)).toBe('[ 2/57] FAIL  wrong_nonce (1.2 s)');
  });

  it('end with a table, the reasons of what did not pass, and the counts', () => {
    const table = textTable(report);
    expect(table).toMatch(/^verdict\s+case\s+expects\s+took\n/);
    expect(table).toContain('FAIL     wrong_nonce');
    expect(table).toContain('What did not pass:\n  wrong_nonce (FAIL): Accepted what it must refuse');
    expect(table).toContain('  wrong_state (ERROR): The case did not end within 60 s.');
    expect(table).not.toContain('picture_not_image (n/a)');
    expect(table).toContain("1 passed, 1 failed, 1 could not be decided, 1 did not apply, of 4 cases for client 'my-rp' in 90 s.");
  });

  it('write JUnit XML with a failure, an error and a skipped case, every value escaped', () => {
    const xml = junitXml(report);
    expect(xml).toContain('<testsuites name="IDV conformance: my-rp" tests="4" failures="1" errors="1" skipped="1" time="90.000">');
    expect(xml).toContain('<testcase classname="conformance.accept" name="normal: A normal verification" time="1.234"/>');
    expect(xml).toMatch(
      /<testcase classname="conformance.refuse" name="wrong_nonce: Wrong nonce" time="1.234">\n {6}<failure message="Accepted what it must refuse: &lt;script&gt;/,
    );
    expect(xml).toContain('FAPI 2.0 test: fapi2-security-profile-final-client-test-invalid-nonce');
    expect(xml).toMatch(/<error message="The case did not end within 60 s." type="error">/);
    expect(xml).toContain('<skipped message="The relying party did not request picture."/>');
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0007');
  });

  it('make an HTML page with each verdict, the emulator trace and the screenshot, nothing of the relying party run', () => {
    const html = htmlReport(report);
    expect(html).toContain('<section id="case-wrong_nonce" class="fail" data-case="wrong_nonce" data-verdict="fail">');
    expect(html).toContain('<img src="normal.png" alt="The relying party&#39;s page at the end of case normal" loading="lazy">');
    expect(html).toContain('Faults applied: <code>wrong_nonce</code>.');
    expect(html).toContain('<td><code>id_token</code></td><td>fault</td><td>ID token issued');
    expect(html).toContain('fapi2-security-profile-final-client-test-invalid-nonce');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('<strong>1</strong> failed');
  });

  it('keep the HTML page within a phone’s width: its tables scroll on their own, its facts stack', () => {
    const html = htmlReport(report);
    expect(html.match(/<table>/g)?.length).toBe(html.match(/<div class="scroll"><table>/g)?.length);
    expect(html).toContain('@media (max-width: 40rem) { body { padding: 1rem; } dl { grid-template-columns: 1fr; }');
  });

  it('say in the HTML page that the client-wide cases may have touched other verifications, or that they were left out', () => {
    const withPar: RunReport = { ...report, results: [...report.results, result('par_invalid_client', { status: 'pass', reason: 'Refused.' })] };
    expect(htmlReport(withPar)).toContain('Client-wide cases: <code>par_invalid_client</code> ran alone, after every other case.');
    expect(htmlReport(withPar)).toContain('other verifications of client <code>my-rp</code>');
    expect(htmlReport(report)).not.toContain('data-testid="client-wide"');
    expect(htmlReport({ ...report, options: { ...report.options, clientWide: false } })).toContain('were left out (<code>--no-client-wide</code>)');
  });

  it('say in the HTML page which control the kit pressed, the title of the page it ended on and why a screenshot was cut', () => {
    const html = htmlReport(report);
    expect(html).toContain('<dt>Start control pressed</dt><dd>button &quot;Start &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;</dd>');
    expect(html).toContain('<dt>Ended on</dt><dd>http://127.0.0.1:8000/callback (&quot;Failed &lt;script&gt;');
    expect(html).toContain('<dt>Screenshot</dt><dd>the whole page was larger than 5 MB; the screenshot is of the viewport</dd>');
  });
});
