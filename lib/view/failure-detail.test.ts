import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/lib/i18n/locale';
import { sentValue, type AppErrorDetail } from '@/lib/verification/failures';
import type { FailureDetail } from '@/lib/verification/stored';
import { describeFailureDetail } from './failure-detail';
import { FAILURE_DETAIL_MESSAGES } from './failure-detail-messages';
import { PAGE_MESSAGES } from './page-messages';
import { PICKER_MESSAGES } from './picker-messages';

const APP = 'http://localhost:3000';
const words = (detail: FailureDetail, locale: 'en' | 'nb') => describeFailureDetail(detail, locale);

/** Every kind of the app's refusals, with the words each language gives it. */
const KINDS: [AppErrorDetail, string, string][] = [
  [{ kind: 'unknown_value', field: 'claim', value: { text: 'shoe_size' } }, '“shoe_size” is not a known claim.', '«shoe_size» er ikke en kjent opplysning.'],
  [
    { kind: 'unknown_value', field: 'claim', value: sentValue('c'.repeat(100)) },
    'A value of 100 characters is not a known claim.',
    'En verdi på 100 tegn er ikke en kjent opplysning.',
  ],
  [
    { kind: 'unknown_value', field: 'essential', value: { text: 'x' } },
    '“x” is not a known claim to mark essential.',
    '«x» er ikke en kjent opplysning å merke som påkrevd.',
  ],
  [
    { kind: 'unknown_value', field: 'evidence', value: { text: 'dna' } },
    '“dna” is not a known kind of evidence.',
    '«dna» er ikke en kjent type dokumentasjon.',
  ],
  [
    { kind: 'unknown_value', field: 'document_detail', value: { text: 'height' } },
    '“height” is not a known document detail.',
    '«height» er ikke en kjent dokumentdetalj.',
  ],
  [{ kind: 'unknown_value', field: 'preset', value: { text: 'nope' } }, '“nope” is not a known preset.', '«nope» er ikke et kjent ferdig valg.'],
  [
    { kind: 'unknown_value', field: 'trust_framework', value: { length: 8 } },
    'A value of 8 characters is not a known trust framework.',
    'En verdi på 8 tegn er ikke et kjent tillitsrammeverk.',
  ],
  [{ kind: 'unknown_field', name: { text: 'colour' } }, 'Unknown field in the start form: “colour”.', 'Ukjent felt i startskjemaet: «colour».'],
  [
    { kind: 'unknown_field', name: { length: 300 } },
    'Unknown field in the start form: a value of 300 characters.',
    'Ukjent felt i startskjemaet: en verdi på 300 tegn.',
  ],
  [
    { kind: 'selection_problem', problem: 'etsi_requires_names' },
    'The standard_etsi trust framework requires given_name and family_name to be requested.',
    'Tillitsrammeverket standard_etsi krever at given_name og family_name blir bedt om.',
  ],
  [
    { kind: 'selection_problem', problem: 'nothing_requested' },
    'Request at least one claim or one kind of evidence.',
    'Be om minst én opplysning eller én type dokumentasjon.',
  ],
  [
    { kind: 'selection_problem', problem: 'personal_number_not_11_digits' },
    'The personal number to look up must be 11 digits.',
    'Fødselsnummeret som skal slås opp, må ha 11 sifre.',
  ],
  [
    { kind: 'personal_number_too_long', max: 32 },
    'The personal number to look up is longer than 32 characters.',
    'Fødselsnummeret som skal slås opp, er lengre enn 32 tegn.',
  ],
  [{ kind: 'form_too_large', form: 'start', maxBytes: 16384 }, 'The start form is larger than 16384 bytes.', 'Startskjemaet er større enn 16384 byte.'],
  [
    { kind: 'form_too_large', form: 'settings', maxBytes: 1024 },
    'The settings form is larger than 1024 bytes.',
    'Innstillingsskjemaet er større enn 1024 byte.',
  ],
  [
    { kind: 'form_not_urlencoded' },
    'The start form must be sent as application/x-www-form-urlencoded.',
    'Startskjemaet må sendes som application/x-www-form-urlencoded.',
  ],
  [
    { kind: 'unknown_preference', name: { text: 'theme' }, value: { length: 90 } },
    'Unknown setting: “theme” = a value of 90 characters.',
    'Ukjent innstilling: «theme» = en verdi på 90 tegn.',
  ],
  [
    { kind: 'cross_site', action: 'start', from: { text: 'http://127.0.0.1:3000' }, app: APP },
    'A verification can only be started from this app’s own pages; it came from “http://127.0.0.1:3000”, and this app’s address is http://localhost:3000 (APP_URL): open the app there and start again.',
    'En verifisering kan bare startes fra appens egne sider; den kom fra «http://127.0.0.1:3000», og appens adresse er http://localhost:3000 (APP_URL): åpne appen der og start på nytt.',
  ],
  [
    { kind: 'cross_site', action: 'sign_out', from: { length: 44 }, app: APP },
    'Sign-out can only be requested from this app’s own pages; it came from a value of 44 characters, and this app’s address is http://localhost:3000 (APP_URL): open the app there and start again.',
    'Utlogging kan bare bes om fra appens egne sider; den kom fra en verdi på 44 tegn, og appens adresse er http://localhost:3000 (APP_URL): åpne appen der og start på nytt.',
  ],
  [
    { kind: 'cross_site', action: 'settings', app: APP },
    'Settings can only be changed from this app’s own pages; this app’s address is http://localhost:3000.',
    'Innstillinger kan bare endres fra appens egne sider; appens adresse er http://localhost:3000.',
  ],
];

describe('describeFailureDetail: the app’s refusals', () => {
  it.each(KINDS)('words %j in English and Norwegian, labelled as the detail, in the page’s language', (detail, english, norwegian) => {
    expect(words(detail, 'en')).toEqual({ label: 'Detail', text: english });
    expect(words(detail, 'nb')).toEqual({ label: 'Detaljer', text: norwegian });
  });

  it('is tested above for every kind the catalog words', () => {
    const tested = new Set(KINDS.map(([detail]) => detail.kind));
    for (const locale of LOCALES) expect(Object.keys(FAILURE_DETAIL_MESSAGES[locale].kinds).sort()).toEqual([...tested].sort());
  });

  it('words a value the start form does not take as a link that holds one is worded, and a selection problem as the picker does', () => {
    for (const locale of LOCALES) {
      expect(words({ kind: 'unknown_value', field: 'document_detail', value: { text: 'height' } }, locale)?.text).toBe(
        PAGE_MESSAGES[locale].home.unreadPart({ reason: 'unknown', field: 'document_detail', value: 'height' }),
      );
      expect(words({ kind: 'selection_problem', problem: 'etsi_requires_names' }, locale)?.text).toBe(PICKER_MESSAGES[locale].problems.etsi_requires_names);
    }
  });

  it('quotes a typed value only when it was kept (a short plain token), and bounds anything else to its length', () => {
    const typed = `Your session expired. Call 555 0100 ${'x'.repeat(16_000)}`;
    for (const locale of LOCALES) {
      const shown = words({ kind: 'unknown_value', field: 'claim', value: sentValue(typed) }, locale)!.text;
      expect(shown).not.toContain('Call 555');
      expect(shown.length).toBeLessThan(80);
      expect(shown).toContain(String(typed.length));
      const plain = words({ kind: 'unknown_value', field: 'claim', value: sentValue('shoe_size') }, locale)!.text;
      expect(plain).toMatch(locale === 'en' ? /^“shoe_size” / : /^«shoe_size» /);
    }
  });
});

describe('describeFailureDetail: the core’s own sentence', () => {
  it('is shown as written, marked English and labelled as the technical detail in English on a Norwegian page', () => {
    const detail: FailureDetail = { kind: 'core_message', message: 'The discovery endpoint answered HTTP 502' };
    expect(words(detail, 'nb')).toEqual({ label: 'Teknisk detalj (på engelsk)', text: 'The discovery endpoint answered HTTP 502', lang: 'en' });
    expect(words(detail, 'en')).toEqual({ label: 'Technical detail', text: 'The discovery endpoint answered HTTP 502', lang: 'en' });
  });
});

describe('describeFailureDetail: a record of another version', () => {
  it('shows nothing for a kind it does not know, whatever the prototype of the catalog says', () => {
    for (const kind of ['a_kind_of_a_newer_version', 'toString', '__proto__'])
      for (const locale of LOCALES) expect(words({ kind } as unknown as FailureDetail, locale)).toBeUndefined();
  });
});
