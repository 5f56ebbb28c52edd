/**
 * The kit's reports: a table for the terminal, JUnit XML for CI systems, and an HTML page for
 * people (each case's verdict, the flow as the emulator saw it, the JWKS fetches, a screenshot of
 * the page the relying party ended on). Every value from the relying party, the emulator or the
 * command line is escaped: a report must not run what a relying party put on its page.
 */
import type { ConformanceCase } from './cases';
import type { CaseResult } from './run-case';
import { tally, type RunReport } from './runner';
import type { VerdictStatus } from './judge';

const STATUS_WORD: Record<VerdictStatus, string> = { pass: 'pass', fail: 'FAIL', error: 'ERROR', not_applicable: 'n/a' };

/** What a case expects, in a word or two. */
export function expectationOf(testCase: ConformanceCase): string {
  return testCase.expect === 'accepted' ? 'accept' : testCase.expect === 'refused' ? 'refuse' : 'no portrait';
}

/** The line printed when a case ends. */
export function progressLine(index: number, total: number, result: CaseResult): string {
  const width = String(total).length;
  return `[${String(index).padStart(width)}/${total}] ${STATUS_WORD[result.verdict.status].padEnd(5)} ${result.testCase.id} (${(result.durationMs / 1000).toFixed(1)} s)`;
}

/** The table at the end: one row per case, then the reasons of what did not pass, then the counts. */
export function textTable(report: RunReport): string {
  const rows = report.results.map((result) => [
    STATUS_WORD[result.verdict.status],
    result.testCase.id,
    expectationOf(result.testCase),
    `${(result.durationMs / 1000).toFixed(1)} s`,
  ]);
  const header = ['verdict', 'case', 'expects', 'took'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const lines = [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
  const problems = report.results.filter((result) => result.verdict.status === 'fail' || result.verdict.status === 'error');
  if (problems.length > 0) {
    lines.push('', 'What did not pass:');
    for (const result of problems) lines.push(`  ${result.testCase.id} (${STATUS_WORD[result.verdict.status]}): ${result.verdict.reason}`);
  }
  const counts = tally(report.results);
  lines.push(
    '',
    `${counts.pass} passed, ${counts.fail} failed, ${counts.error} could not be decided, ${counts.not_applicable} did not apply, of ${report.results.length} cases for client '${report.options.clientId}' in ${Math.round((report.endedAt - report.startedAt) / 1000)} s.`,
  );
  return lines.join('\n');
}

/** Text safe in XML and HTML content and double-quoted attributes; characters XML 1.0 forbids are dropped. */
export function escapeMarkup(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * JUnit XML (the shape Jenkins, GitLab and GitHub's test reporters read): one test suite for the
 * run, one test case per case; a failed case carries `<failure>`, one that could not be decided
 * `<error>`, one that did not apply `<skipped>`.
 */
export function junitXml(report: RunReport): string {
  const counts = tally(report.results);
  const suite = `IDV conformance: ${report.options.clientId}`;
  const cases = report.results.map((result) => {
    const { testCase, verdict } = result;
    const attributes = `classname="${escapeMarkup(`conformance.${expectationOf(testCase).replace(' ', '_')}`)}" name="${escapeMarkup(`${testCase.id}: ${testCase.title}`)}" time="${(result.durationMs / 1000).toFixed(3)}"`;
    const detail = escapeMarkup(
      `${verdict.reason}\nCase: ${testCase.what}\nBasis: ${testCase.basis}${testCase.fapiTest ? `\nFAPI 2.0 test: ${testCase.fapiTest}` : ''}\nEnded on: ${result.finalUrl}`,
    );
    switch (verdict.status) {
      case 'pass':
        return `    <testcase ${attributes}/>`;
      case 'fail':
        return `    <testcase ${attributes}>\n      <failure message="${escapeMarkup(verdict.reason)}" type="fail">${detail}</failure>\n    </testcase>`;
      case 'error':
        return `    <testcase ${attributes}>\n      <error message="${escapeMarkup(verdict.reason)}" type="error">${detail}</error>\n    </testcase>`;
      case 'not_applicable':
        return `    <testcase ${attributes}>\n      <skipped message="${escapeMarkup(verdict.reason)}"/>\n    </testcase>`;
    }
  });
  const seconds = ((report.endedAt - report.startedAt) / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeMarkup(suite)}" tests="${report.results.length}" failures="${counts.fail}" errors="${counts.error}" skipped="${counts.not_applicable}" time="${seconds}">`,
    `  <testsuite name="${escapeMarkup(suite)}" tests="${report.results.length}" failures="${counts.fail}" errors="${counts.error}" skipped="${counts.not_applicable}" time="${seconds}" timestamp="${new Date(report.startedAt).toISOString()}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const VERDICT_CLASS: Record<VerdictStatus, string> = { pass: 'pass', fail: 'fail', error: 'error', not_applicable: 'na' };

/** The HTML report: one self-contained page beside the screenshots it shows. */
export function htmlReport(report: RunReport): string {
  const counts = tally(report.results);
  const e = escapeMarkup;
  const verdictWord: Record<VerdictStatus, string> = { pass: 'Pass', fail: 'Fail', error: 'Could not be decided', not_applicable: 'Did not apply' };
  const summaryRows = report.results
    .map(
      (result) =>
        `<tr class="${VERDICT_CLASS[result.verdict.status]}"><td><span class="badge">${e(verdictWord[result.verdict.status])}</span></td><td><a href="#case-${e(result.testCase.id)}"><code>${e(result.testCase.id)}</code></a></td><td>${e(result.testCase.title)}</td><td>${e(expectationOf(result.testCase))}</td><td>${(result.durationMs / 1000).toFixed(1)} s</td></tr>`,
    )
    .join('\n');
  const sections = report.results.map((result) => caseSection(result, verdictWord)).join('\n');
  const { options } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${e(options.clientId)}</title>
<style>
:root { color-scheme: light dark; --pass: #15803d; --fail: #b91c1c; --error: #b45309; --na: #57534e; --line: #d6d3d1; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.2rem; margin: 0; } h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
.summary { display: flex; gap: 1rem; flex-wrap: wrap; margin: 1rem 0; } .summary div { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem 1rem; }
.badge { border-radius: 999px; color: #fff; display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .6rem; white-space: nowrap; }
.pass .badge { background: var(--pass); } .fail .badge { background: var(--fail); } .error .badge { background: var(--error); } .na .badge { background: var(--na); }
section { border: 1px solid var(--line); border-left-width: .4rem; border-radius: .5rem; margin: 1rem 0; padding: 1rem; }
section.pass { border-left-color: var(--pass); } section.fail { border-left-color: var(--fail); } section.error { border-left-color: var(--error); } section.na { border-left-color: var(--na); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; } dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
img { border: 1px solid var(--line); max-width: 100%; max-height: 32rem; }
code, pre { font-family: ui-monospace, monospace; font-size: .85rem; overflow-wrap: anywhere; white-space: pre-wrap; }
details { margin-top: .5rem; }
.scroll { overflow-x: auto; }
@media (max-width: 40rem) { body { padding: 1rem; } dl { grid-template-columns: 1fr; } dt { margin-top: .4rem; } }
</style>
</head>
<body>
<header>
<h1>Conformance report: <code>${e(options.clientId)}</code></h1>
<p>Start URL <code>${e(options.startUrl)}</code>, emulator <code>${e(options.emulator)}</code>, ${new Date(report.startedAt).toISOString()}, ${Math.round((report.endedAt - report.startedAt) / 1000)} s.</p>
</header>
<main>
<div class="summary" data-testid="summary"><div><strong>${counts.pass}</strong> passed</div><div><strong>${counts.fail}</strong> failed</div><div><strong>${counts.error}</strong> could not be decided</div><div><strong>${counts.not_applicable}</strong> did not apply</div></div>
<p>Each case is one whole verification. The person's given name in its ID token is a canary only that case carries: the relying party accepted when the canary appears on the page it ended on. Refused means it never appears and the relying party answered no 5xx. The kit cannot see what the relying party does after that page.</p>
${clientWideNote(report)}
<div class="scroll"><table>
<thead><tr><th>Verdict</th><th>Case</th><th>What</th><th>Expects</th><th>Took</th></tr></thead>
<tbody>
${summaryRows}
</tbody>
</table></div>
${sections}
</main>
</body>
</html>
`;
}

/**
 * What the client-wide cases did beside the run, or that they were left out: they are the only
 * ones another verification of the client (of any client, for the JWKS) may have seen.
 */
export function clientWideNote(report: RunReport): string {
  const ran = report.results.filter((result) => result.testCase.clientWide).map((result) => result.testCase.id);
  if (ran.length > 0) {
    return `<p class="client-wide" data-testid="client-wide">Client-wide cases: ${ran.map((id) => `<code>${escapeMarkup(id)}</code>`).join(', ')} ran alone, after every other case. A PAR fault is armed for the whole client, and a rotated signing key or a JWKS variant is what every client of the emulator gets: while they ran, other verifications of client <code>${escapeMarkup(report.options.clientId)}</code> (and, for the JWKS, of every client of this emulator) may have been refused. On a shared emulator, use a client of the kit's own, or leave them out with <code>--no-client-wide</code>.</p>`;
  }
  if (report.options.clientWide === false) {
    return '<p class="client-wide" data-testid="client-wide">Client-wide cases (PAR faults, key rotation, JWKS variants) were left out (<code>--no-client-wide</code>): no other verification could have seen this run.</p>';
  }
  return '';
}

function caseSection(result: CaseResult, verdictWord: Record<VerdictStatus, string>): string {
  const e = escapeMarkup;
  const { testCase, verdict } = result;
  const facts: [string, string][] = [
    ['Verdict', verdict.reason],
    ['What the service did', testCase.what],
    [
      'A correct relying party',
      testCase.expect === 'accepted' ? 'accepts it' : testCase.expect === 'refused' ? 'refuses it' : 'shows and fetches no portrait from it',
    ],
    ['Rests on', testCase.basis],
    ...(testCase.fapiTest ? [['FAPI 2.0 test', testCase.fapiTest] as [string, string]] : []),
    ...(testCase.otherSuiteTest ? [['Nearest conformance-suite test', testCase.otherSuiteTest] as [string, string]] : []),
    ...(result.canary ? [['Canary given name', result.canary] as [string, string]] : []),
    ...(result.startControl ? [['Start control pressed', result.startControl] as [string, string]] : []),
    ...(result.finalUrl ? [['Ended on', `${result.finalUrl}${result.finalTitle ? ` ("${result.finalTitle}")` : ''}`] as [string, string]] : []),
    ...(result.screenshotNote ? [['Screenshot', result.screenshotNote] as [string, string]] : []),
  ];
  const events = result.flow?.events ?? [];
  const trace =
    events.length === 0
      ? '<p>The emulator saw no flow for this case.</p>'
      : `<div class="scroll"><table><thead><tr><th>Time</th><th>Step</th><th>Outcome</th><th>What the emulator saw</th></tr></thead><tbody>${events
          .map(
            (event) =>
              `<tr><td>${e(new Date(event.at).toISOString().slice(11, 23))}</td><td><code>${e(event.step)}</code></td><td>${e(event.outcome)}</td><td>${e(event.summary)}${Object.keys(event.details).length > 0 ? `<details><summary>details</summary><pre>${e(JSON.stringify(event.details, null, 2))}</pre></details>` : ''}</td></tr>`,
          )
          .join('')}</tbody></table></div>`;
  const faults = result.flow?.faults.length ? `<p>Faults applied: ${result.flow.faults.map((fault) => `<code>${e(fault.id)}</code>`).join(', ')}.</p>` : '';
  const jwks = result.jwksFetches.length
    ? `<h3>JWKS fetches during the case</h3><ul>${result.jwksFetches.map((fetch) => `<li>${e(new Date(fetch.at).toISOString().slice(11, 23))}: kids ${e(fetch.kids.join(', '))}${fetch.variants.length ? `; variants ${e(fetch.variants.join(', '))}` : ''}</li>`).join('')}</ul>`
    : '';
  const navigations = result.navigations.length
    ? `<details><summary>The browser's pages (${result.navigations.length})</summary><ol>${result.navigations.map((url) => `<li><code>${e(url)}</code></li>`).join('')}</ol></details>`
    : '';
  const screenshot = result.screenshot
    ? `<h3>The page it ended on</h3><img src="${e(encodeURI(result.screenshot))}" alt="${e(`The relying party's page at the end of case ${testCase.id}`)}" loading="lazy">`
    : '';
  return `<section id="case-${e(testCase.id)}" class="${VERDICT_CLASS[verdict.status]}" data-case="${e(testCase.id)}" data-verdict="${verdict.status}">
<h2><span class="badge">${e(verdictWord[verdict.status])}</span> <code>${e(testCase.id)}</code>: ${e(testCase.title)}</h2>
<dl>${facts.map(([term, value]) => `<dt>${e(term)}</dt><dd>${e(value)}</dd>`).join('')}</dl>
<h3>The flow as the emulator saw it</h3>
${faults}${trace}${jwks}${navigations}${screenshot}
</section>`;
}
