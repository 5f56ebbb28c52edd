import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Test support (test/support) is for tests only: product code never imports it. */
const testSupport = { group: ['@/test/*', '**/test/support/*'], message: 'test/ is for tests; product code never imports it.' };
/** The conformance kit (conformance/) is a tool of its own: the product server never loads it, nor a browser driver. */
const conformanceKit = {
  group: ['@/conformance/*', '**/conformance/*', 'playwright-core', 'playwright-core/*', '@playwright/*'],
  message: 'conformance/ is a tool of its own (conformance/README.md): the product never imports it, nor Playwright.',
};
/** ARCHITECTURE.md "Import rules": the core, the emulator, the store, the languages and the domain of a verification are framework-free and never read the environment. */
const frameworks = {
  group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*', '@/lib/server/*', 'server-only'],
  message: 'lib/oidc, lib/emulator, lib/store, lib/i18n and lib/verification are framework-free.',
};

/** Folders of lib/emulator, from the base up (ARCHITECTURE.md "Import rules" says the same rules). */
const emulator = (folder) => `./lib/emulator/${folder}`;
const emulatorLayers = [
  // the data and the rules know nothing of pages or handlers
  { target: emulator('personas'), from: ['checks', 'tokens', 'views', 'identity-app', 'qa', 'endpoints'].map(emulator) },
  { target: emulator('checks'), from: ['tokens', 'views', 'identity-app', 'qa', 'endpoints', 'personas'].map(emulator) },
  { target: emulator('tokens'), from: ['views', 'identity-app', 'endpoints'].map(emulator) },
  // the protocol emits events (events.ts) and QA's listeners do the rest, so the protocol's handlers
  // import nothing of qa/ but the model of a flow's chosen answer, which the flow's pages offer;
  // the panel and the QA API are QA's own endpoints
  { target: emulator('tokens'), from: emulator('qa'), message: 'tokens/ emits events (events.ts); QA listens.' },
  {
    target: [emulator('identity-app'), emulator('endpoints/!(panel*|qa-api*)')],
    from: emulator('qa'),
    except: ['./flow-answers.ts', './choose-flow-answer.ts'],
    message: 'A handler of the protocol emits events (events.ts); QA listens. Of qa/ it may use only the chooser of a flow’s answer.',
  },
  // pages render what they are given: never a handler (endpoints/), and of identity-app/ and qa/ only the model
  { target: emulator('views'), from: emulator('endpoints') },
  { target: emulator('views'), from: emulator('identity-app'), except: ['./steps.ts', './links.ts'] },
  { target: emulator('views'), from: emulator('qa'), except: ['./faults.ts', './control.ts', './panel-access.ts', './flow-answers.ts'] },
  // the simulated identity app and QA never call an endpoint
  { target: [emulator('identity-app'), emulator('qa')], from: emulator('endpoints') },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', '.data/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts']),
  {
    // Plain links between pages, not next/link: every page is rendered per request (its CSP nonce),
    // so client navigation saves little, while a Link in view prefetches its route, a request the
    // server renders (the layout, for a dynamic page) whether or not anybody follows it (issue 10).
    rules: { '@next/next/no-html-link-for-pages': 'off' },
  },
  {
    // ARCHITECTURE.md "Import rules": no import cycles (this rule sees value imports; `npm run lint:cycles` sees types too).
    files: ['**/*.ts', '**/*.tsx'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'lib/**/*.ts', 'instrumentation.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testSupport, conformanceKit] }] },
  },
  {
    // The verification flow is plain functions of what they are given (a test calls them without a
    // request): the route handlers read the cookies and headers and pass the services in.
    files: ['lib/server/verification.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            testSupport,
            conformanceKit,
            { group: ['next', 'next/*'], message: 'The flow takes what it needs as arguments; route handlers read the request.' },
          ],
          paths: [
            { name: './services', importNames: ['services'], message: 'The flow is given its services (FlowServices).' },
            { name: './session', importNames: ['currentBrowser', 'bindBrowser', 'forgetBrowser'], message: 'The flow is given the browser’s binding.' },
            { name: './preferences', importNames: ['preferences'], message: 'The flow is given the locale.' },
          ],
        },
      ],
    },
  },
  {
    // env.ts parses the environment; what it names is read at start-up (configuration.ts).
    files: ['lib/server/env.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [testSupport, conformanceKit],
          paths: ['node:fs', 'node:fs/promises', 'node:os', 'node:net', './data-folder', './shared-dev-keys', './configuration'].map((name) => ({
            name,
            message: 'env.ts only parses: files, the store and the network are read at start-up (configuration.ts).',
          })),
        },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'configuration.ts reads process.env and hands it to env.ts.' }],
    },
  },
  {
    // What the embedded emulator did to a flow reaches the failure page through the diagnostics
    // port the services hold (lib/verification/diagnostics.ts), not the emulator's catalogue.
    files: ['app/failure/**/*.{ts,tsx}', 'app/_components/failure-panel.tsx', 'lib/server/failures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [testSupport, conformanceKit, { group: ['@/lib/emulator', '@/lib/emulator/*'], message: 'Ask the services’ diagnostics port.' }] },
      ],
    },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // lib/oidc is copied alone into other products; the emulator must not share its guesses.
            { target: './lib/oidc', from: ['./lib/emulator', './lib/server', './lib/verification', './lib/view', './app', './test'] },
            { target: './lib/emulator', from: ['./lib/oidc', './lib/server', './lib/verification', './lib/view', './app', './conformance'] },
            // the state layer serves the app and the emulator alike
            { target: './lib/store', from: ['./lib/oidc', './lib/emulator', './lib/server', './lib/verification', './lib/view', './app'] },
            // languages and their formatting serve the app and the emulator alike, knowing neither
            { target: './lib/i18n', from: ['./lib/oidc', './lib/emulator', './lib/server', './lib/verification', './lib/view', './lib/store', './app'] },
            // the domain of a verification: free of React, Next, the server glue and the words of pages
            { target: './lib/verification', from: ['./lib/emulator', './lib/server', './lib/view', './app'] },
            // view models are pure: they never reach the server glue or the pages
            { target: './lib/view', from: ['./lib/server', './app', './lib/emulator'] },
            { target: './lib/server', from: './app' },
            ...emulatorLayers,
          ],
        },
      ],
    },
  },
  {
    files: ['lib/oidc/**/*.ts', 'lib/emulator/**/*.ts', 'lib/store/**/*.ts', 'lib/i18n/**/*.ts', 'lib/verification/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [frameworks] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only lib/server/configuration.ts reads process.env.' }],
    },
  },
  {
    files: ['lib/oidc/**/*.ts', 'lib/emulator/**/*.ts', 'lib/store/**/*.ts', 'lib/i18n/**/*.ts', 'lib/verification/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [frameworks, testSupport] }] },
  },
  {
    // The protocol's handlers reach QA's faults and trace store only through events (events.ts),
    // never through the context they are handed.
    files: ['lib/emulator/endpoints/**/*.ts', 'lib/emulator/tokens/**/*.ts', 'lib/emulator/identity-app/**/*.ts'],
    ignores: ['**/*.test.ts', 'lib/emulator/endpoints/panel.ts', 'lib/emulator/endpoints/qa-api.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='context'][property.name=/^(faults|traces)$/]",
          message: 'A handler emits an event (context.events) and QA listens (qa/fault-listeners.ts, qa/flow-log.ts); it never calls the faults or the traces.',
        },
      ],
    },
  },
]);
