/**
 * The words of the conformance page (views/conformance-page.ts, endpoints/conformance.ts), in
 * each language the emulator speaks. Protocol names, case ids and commands stay as they are. `nb`
 * is typed by `en`, so tsc proves it complete.
 * @see views/panel-messages.ts (the panel's own words, which the page's errors use)
 */
import type { Locale } from '../../i18n/locale';

const en = {
  title: 'IDV emulator: conformance kit',
  heading: 'Conformance kit',
  lead: 'Runs the conformance kit against a relying party registered with this emulator: each case is one whole verification in a browser, answered by the emulator as the case says, and decided by what the relying party shows.',
  backToPanel: 'Back to the QA panel',
  notAvailable: 'The conformance kit is not available in this deployment: it needs the development dependencies (playwright-core) and a Chromium, which this server does not run with.',
  runItYourself: 'Run it from a checkout of this project instead:',
  client: 'Client',
  startUrl: 'Start URL',
  startUrlHint: 'The page where a person starts a verification at the relying party.',
  startSelector: 'Start selector (optional)',
  startSelectorHint: 'A CSS selector for the start control; default: the page’s first submit button.',
  cases: 'Cases (optional)',
  casesHint: 'Case ids or patterns, comma-separated; * matches anything (e.g. wrong_*,expired). Default: every case. The normal verification always runs first and last.',
  jwksCooldown: 'JWKS cooldown (seconds)',
  jwksCooldownHint: (seconds: number) =>
    `How long after a JWKS fetch the relying party fetches again for an unknown kid: 30 for this app’s own client, 60 (openid-client’s) for others. Prefilled: ${seconds}.`,
  run: 'Run the conformance kit',
  runHeading: (runId: string) => `Run ${runId}`,
  running: 'Running',
  done: 'Done',
  failed: 'Could not run',
  progress: (done: number, total: number) => (total === 0 ? 'Starting…' : `${done} of ${total} cases ended`),
  refreshes: 'This page refreshes itself every 2 seconds while the run goes.',
  passedVerdict: 'Every case passed or did not apply.',
  failedVerdict: 'A case failed or could not be decided.',
  report: 'HTML report',
  junit: 'JUnit XML',
  screenshots: 'Screenshots',
  newRun: 'Start another run',
  busy: 'A conformance run is going already: one runs at a time. Wait for it to end, then start yours.',
  busyLink: 'See the run that is going',
  unknownRun: 'No such run: it was never started here, or it is older than the last five.',
  noFile: 'No such file in this run.',
  unknownClient: (clientId: string) => `The client ${clientId} is not registered with this emulator.`,
  noClient: 'Choose a client.',
  badStartUrl: 'The start URL must be an absolute http or https URL.',
  badStartSelector: 'The start selector may be at most 200 characters.',
  badCases: 'The cases must be case ids or patterns of lowercase letters, digits, _ and *, separated by commas (at most 100).',
  badCooldown: 'The JWKS cooldown must be a whole number of seconds from 0 to 3600.',
};

export type ConformanceMessages = typeof en;

const nb: ConformanceMessages = {
  title: 'IDV-emulator: samsvarstesting',
  heading: 'Samsvarstesting',
  lead: 'Kjører samsvarstestene mot en tjenesteyter som er registrert hos denne emulatoren: hvert tilfelle er én hel verifisering i en nettleser, besvart av emulatoren slik tilfellet sier, og avgjort av hva tjenesteyteren viser.',
  backToPanel: 'Tilbake til QA-panelet',
  notAvailable: 'Samsvarstestene er ikke tilgjengelige i denne installasjonen: de trenger utviklingsavhengighetene (playwright-core) og en Chromium, som denne serveren ikke kjører med.',
  runItYourself: 'Kjør dem i stedet fra en kopi av dette prosjektet:',
  client: 'Klient',
  startUrl: 'Start-URL',
  startUrlHint: 'Siden der en person starter en verifisering hos tjenesteyteren.',
  startSelector: 'Startvelger (valgfri)',
  startSelectorHint: 'En CSS-velger for startknappen; standard: sidens første innsendingsknapp.',
  cases: 'Tilfeller (valgfritt)',
  casesHint: 'Tilfellenes id-er eller mønstre, skilt med komma; * passer til hva som helst (f.eks. wrong_*,expired). Standard: alle tilfeller. Den vanlige verifiseringen kjøres alltid først og sist.',
  jwksCooldown: 'JWKS-pause (sekunder)',
  jwksCooldownHint: (seconds) =>
    `Hvor lenge etter en JWKS-henting tjenesteyteren venter før den henter igjen for en ukjent kid: 30 for denne appens egen klient, 60 (openid-clients) for andre. Forhåndsutfylt: ${seconds}.`,
  run: 'Kjør samsvarstestene',
  runHeading: (runId) => `Kjøring ${runId}`,
  running: 'Kjører',
  done: 'Ferdig',
  failed: 'Kunne ikke kjøre',
  progress: (done, total) => (total === 0 ? 'Starter …' : `${done} av ${total} tilfeller ferdige`),
  refreshes: 'Siden oppdaterer seg selv hvert 2. sekund mens kjøringen pågår.',
  passedVerdict: 'Alle tilfeller besto eller gjaldt ikke.',
  failedVerdict: 'Et tilfelle feilet eller kunne ikke avgjøres.',
  report: 'HTML-rapport',
  junit: 'JUnit-XML',
  screenshots: 'Skjermbilder',
  newRun: 'Start en ny kjøring',
  busy: 'En samsvarskjøring pågår allerede: én kjører om gangen. Vent til den er ferdig, og start så din.',
  busyLink: 'Se kjøringen som pågår',
  unknownRun: 'Ingen slik kjøring: den ble aldri startet her, eller den er eldre enn de fem siste.',
  noFile: 'Ingen slik fil i denne kjøringen.',
  unknownClient: (clientId) => `Klienten ${clientId} er ikke registrert hos denne emulatoren.`,
  noClient: 'Velg en klient.',
  badStartUrl: 'Start-URL-en må være en absolutt http- eller https-URL.',
  badStartSelector: 'Startvelgeren kan være på høyst 200 tegn.',
  badCases: 'Tilfellene må være id-er eller mønstre av små bokstaver, sifre, _ og *, skilt med komma (høyst 100).',
  badCooldown: 'JWKS-pausen må være et helt antall sekunder fra 0 til 3600.',
};

export const CONFORMANCE_MESSAGES: Record<Locale, ConformanceMessages> = { en, nb };
