/**
 * `npm run screenshots`: the README's screenshots, taken again from the current UI. Builds the app
 * (npm's script runs `npm run build` first), runs the Playwright project `screenshots`
 * (e2e/screenshots.spec.ts, which writes e2e/artifacts/readme/), then copies the ones README.md shows
 * (e2e/readme-screenshots.ts) into docs/screenshots/. Fails, naming them, when one was not taken.
 * With `--every-page` (`npm run screenshots -- --every-page`) it also takes every page at both
 * widths, in English and Norwegian, light and dark, in customer mode and presenter mode, with the
 * phone's hand-off, into e2e/artifacts/all/ (a few minutes more), to look at after a change of layout.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { README_SCREENSHOTS } from '../e2e/readme-screenshots';

const started = Date.now();
// `--every-page`: also every page in both languages, both themes and customer mode, into e2e/artifacts/all/.
const everyPage = process.argv.includes('--every-page');
const run = spawnSync('npx', ['playwright', 'test', '--project=screenshots'], {
  stdio: 'inherit',
  env: { ...process.env, ...(everyPage ? { E2E_EVERY_PAGE: '1' } : {}) },
});
if (run.status !== 0) {
  console.error('The screenshots project failed: docs/screenshots/ is left as it was.');
  process.exit(run.status ?? 1);
}
const stale = README_SCREENSHOTS.filter((name) => {
  const taken = `e2e/artifacts/readme/${name}.png`;
  return !existsSync(taken) || statSync(taken).mtimeMs < started;
});
if (stale.length > 0) {
  console.error(`Not taken by e2e/screenshots.spec.ts in this run: ${stale.join(', ')}. docs/screenshots/ is left as it was.`);
  process.exit(1);
}
for (const name of README_SCREENSHOTS) copyFileSync(`e2e/artifacts/readme/${name}.png`, `docs/screenshots/${name}.png`);
console.log(`docs/screenshots/: ${README_SCREENSHOTS.length} screenshots from the current UI.`);
