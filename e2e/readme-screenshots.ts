/**
 * The screenshots README.md shows (docs/screenshots/<name>.png), each taken by
 * e2e/screenshots.spec.ts into e2e/artifacts/readme/<name>.png. `npm run screenshots` takes them all
 * and copies these over the README's; scripts/screenshots.test.ts keeps this list and README.md
 * the same.
 */
export const README_SCREENSHOTS = [
  'picker-desktop',
  'emulator-authorization-desktop',
  'result-desktop',
  'failure-desktop',
  'app-2-scan-phone',
  'app-4-face-phone',
  'emulator-panel-desktop',
  'result-phone',
  'verdict-desktop',
  'failure-check-top-desktop',
  'presenter-desktop',
  'presenter-phone',
  'dark-desktop',
  'dark-phone',
  'norwegian-desktop',
  'customer-demo-desktop',
  'customer-demo-emulator-desktop',
] as const;

/** The names of the screenshots a README refers to (docs/screenshots/<name>.png), in order, once each. */
export function readmeScreenshotNames(readme: string): string[] {
  return [...new Set([...readme.matchAll(/docs\/screenshots\/([a-z0-9-]+)\.png/g)].map((match) => match[1]!))];
}
