/**
 * The words of a failure's recorded detail (lib/verification/stored.ts `FailureDetail`), in each
 * language (lib/i18n): one entry per kind of the app's refusals, so tsc proves both languages
 * word each one. A value a request sent is repeated as the page repeats a link's (quoted, or only
 * its length: page-messages.ts), a value the start form does not take in the very words of a link
 * that holds one, and a selection the service's rules refuse in the picker's words. Codes, field
 * values, media types and variables are never translated.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { AppErrorDetail, GuardedAction, SentValue } from '@/lib/verification/failures';
import { PAGE_MESSAGES } from './page-messages';
import { PICKER_MESSAGES } from './picker-messages';

/** Each kind of refusal, worded from its values. */
export type DetailWords = { [Kind in AppErrorDetail['kind']]: (detail: Extract<AppErrorDetail, { kind: Kind }>) => string };

const enPage = PAGE_MESSAGES.en;
const refusalEn: Record<GuardedAction, string> = {
  start: 'A verification can only be started from this app’s own pages',
  sign_out: 'Sign-out can only be requested from this app’s own pages',
  settings: 'Settings can only be changed from this app’s own pages',
};
const formEn = { start: 'start form', settings: 'settings form' };

const whereFromEn = (from: SentValue | undefined, app: string) =>
  from === undefined
    ? `this app’s address is ${app}.`
    : `it came from ${enPage.value(from)}, and this app’s address is ${app} (APP_URL): open the app there and start again.`;

const en = {
  /** before the core's own sentence, which is always English (a refusal of the app is labelled as any detail: failure-messages.ts) */
  technicalLabel: 'Technical detail',
  kinds: {
    unknown_value: ({ field, value }) => enPage.notKnown(field, value),
    unknown_field: ({ name }) => `Unknown field in the start form: ${enPage.value(name)}.`,
    selection_problem: ({ problem }) => PICKER_MESSAGES.en.problems[problem],
    personal_number_too_long: ({ max }) => `The personal number to look up is longer than ${max} characters.`,
    form_too_large: ({ form, maxBytes }) => `The ${formEn[form]} is larger than ${maxBytes} bytes.`,
    form_not_urlencoded: () => 'The start form must be sent as application/x-www-form-urlencoded.',
    unknown_preference: ({ name, value }) => `Unknown setting: ${enPage.value(name)} = ${enPage.value(value)}.`,
    cross_site: ({ action, from, app }) => `${refusalEn[action]}; ${whereFromEn(from, app)}`,
  } satisfies DetailWords as DetailWords,
};

export type FailureDetailMessages = typeof en;

const nbPage = PAGE_MESSAGES.nb;
const refusalNb: Record<GuardedAction, string> = {
  start: 'En verifisering kan bare startes fra appens egne sider',
  sign_out: 'Utlogging kan bare bes om fra appens egne sider',
  settings: 'Innstillinger kan bare endres fra appens egne sider',
};
const formNb = { start: 'Startskjemaet', settings: 'Innstillingsskjemaet' };

const nb: FailureDetailMessages = {
  technicalLabel: 'Teknisk detalj (på engelsk)',
  kinds: {
    unknown_value: ({ field, value }) => nbPage.notKnown(field, value),
    unknown_field: ({ name }) => `Ukjent felt i startskjemaet: ${nbPage.value(name)}.`,
    selection_problem: ({ problem }) => PICKER_MESSAGES.nb.problems[problem],
    personal_number_too_long: ({ max }) => `Fødselsnummeret som skal slås opp, er lengre enn ${max} tegn.`,
    form_too_large: ({ form, maxBytes }) => `${formNb[form]} er større enn ${maxBytes} byte.`,
    form_not_urlencoded: () => 'Startskjemaet må sendes som application/x-www-form-urlencoded.',
    unknown_preference: ({ name, value }) => `Ukjent innstilling: ${nbPage.value(name)} = ${nbPage.value(value)}.`,
    cross_site: ({ action, from, app }) =>
      `${refusalNb[action]}; ${from === undefined ? `appens adresse er ${app}.` : `den kom fra ${nbPage.value(from)}, og appens adresse er ${app} (APP_URL): åpne appen der og start på nytt.`}`,
  },
};

export const FAILURE_DETAIL_MESSAGES: Record<Locale, FailureDetailMessages> = { en, nb };
