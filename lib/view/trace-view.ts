/**
 * The protocol trace as the trace panel, Copy and Download show it, made when it is read from a
 * kept trace (lib/verification/trace.ts: the facts, secrets already masked for good): each
 * exchange's title and its sections' labels in the reader's language, JWTs shown as their decoded
 * header and payload, masked secrets worded ("3f9a1c…•••• (43 characters)"), the portrait inside
 * an ID token and the certificates of a JWKS shortened, and the signing certificate described.
 * National identity and document numbers are listed per section (`personal`) for the disclosure
 * rule (disclosure.ts), which masks them, or reveals them, on the way out. Pure.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { TraceStep } from '@/lib/oidc/trace';
import type { CertificateSummary } from '@/lib/verification/signing-certificate';
import { isDecodedJwt, isMaskedSecret, type RecordedCheck, type RecordedEvent, type RecordedExchange, type RecordedNote } from '@/lib/verification/trace';
import { presentCheck, type CheckView } from './checks-view';
import { personalValues } from './masking';
import { describeNumericDate } from './result-view';
import { describeSecret } from './secrets';

export { describeSecret } from './secrets';
import { CHECK_MESSAGES } from './check-messages';
import { TRACE_MESSAGES, type TraceMessages } from './trace-messages';

export interface TraceSection {
  label: string;
  /** pretty JSON or plain text */
  content: string;
  /**
   * The national identity and document numbers `content` holds in full, for the disclosure rule
   * (disclosure.ts), which masks them or reveals them and drops this list: never sent.
   */
  personal?: string[];
  /**
   * The NumericDate claims of a JWT payload (`exp`, `iat`, `auth_time`, ...) as dates and times
   * in the reader's language, beside the number `content` keeps: "25 November 2026, 02:13:02 UTC".
   */
  times?: { claim: string; seconds: number; text: string }[];
}

export interface TraceEntryView {
  index: number;
  step: TraceStep;
  title: string;
  method?: string;
  url?: string;
  status?: number;
  /** ISO timestamp */
  at: string;
  durationMs?: number;
  fromCache?: boolean;
  error?: string;
  sections: TraceSection[];
  /**
   * Whether the entry has anything to open (sections, checks or an error): a step a cache
   * answered has not, and is shown as a plain row. Kept when `sections` are left out to be
   * loaded later (the result page).
   */
  expandable: boolean;
  /**
   * The ID token's checks, in order, when this entry lists them (they hold no personal data). Left
   * out with `sections` when every one passed (`traceSummary`), and loaded with them.
   */
  checks?: CheckView[];
  /** Set when this entry lists the ID token's checks: whether every one passed. Kept when `checks` are left out. */
  checksPassed?: boolean;
}

/**
 * The trace as a page first shows it, its detail loaded when an exchange is opened (the result
 * page: /result/trace): each entry without its sections, and the ID token's checks left out when
 * every one passed. Checks that failed stay, open from the start: the failing one is what QA
 * came for.
 */
export function traceSummary(entries: readonly TraceEntryView[]): TraceEntryView[] {
  return entries.map(({ checks, ...entry }) => ({ ...entry, sections: [], ...(checks && !entry.checksPassed ? { checks } : {}) }));
}

/**
 * A value as indented JSON, its masked secrets in words. What a peer sent may be nested too
 * deeply for JSON.stringify (a RangeError); it is then shown as not displayable, so the trace
 * (and the failure it belongs to) is still shown.
 */
function json(value: unknown, messages: TraceMessages): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (isMaskedSecret(item) ? describeSecret(item, messages) : item), 2);
  } catch {
    return messages.notDisplayable;
  }
}

/** The portrait inside an ID token is shortened in the trace. */
export function shortenPortraits(value: unknown, messages: TraceMessages = TRACE_MESSAGES.en): unknown {
  if (typeof value === 'string' && value.startsWith('data:image/') && value.length > 80) {
    return `${value.slice(0, 48)}… (${messages.characters(value.length)})`;
  }
  if (Array.isArray(value)) return value.map((item) => shortenPortraits(item, messages));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenPortraits(v, messages)]));
  }
  return value;
}

/** Certificates in a JWKS are long; their start is enough to recognise them. */
function shortenCertificates(body: unknown, messages: TraceMessages): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { keys?: unknown }).keys)) return body;
  return {
    ...body,
    keys: (body as { keys: unknown[] }).keys.map((key) =>
      key && typeof key === 'object' && Array.isArray((key as { x5c?: unknown }).x5c)
        ? { ...key, x5c: (key as { x5c: unknown[] }).x5c.map((c) => (typeof c === 'string' ? `${c.slice(0, 32)}… (${messages.characters(c.length)})` : c)) }
        : key,
    ),
  };
}

/**
 * The claims of a JWT payload that are NumericDates (RFC 7519 section 2): the registered ones
 * (section 4.1) and OpenID Connect Core's `auth_time` (section 2).
 */
const NUMERIC_DATE_CLAIMS = ['exp', 'nbf', 'iat', 'auth_time'] as const;

/** A payload's NumericDate claims worded, in the order above; those that are no usable number are left out. */
function numericDates(payload: unknown, locale: Locale): NonNullable<TraceSection['times']> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return [];
  return NUMERIC_DATE_CLAIMS.flatMap((claim) => {
    const seconds = (payload as Record<string, unknown>)[claim];
    const text = describeNumericDate(seconds, locale);
    return text === undefined ? [] : [{ claim, seconds: seconds as number, text }];
  });
}

/** A section, with the numbers it holds listed for the disclosure rule. */
function section(label: string, value: unknown, content: string): TraceSection {
  const personal = [...personalValues(value)];
  return personal.length > 0 ? { label, content, personal } : { label, content };
}

/** A JWT payload's section: its numbers listed, its NumericDates worded. */
function payloadSection(label: string, payload: unknown, content: string, locale: Locale): TraceSection {
  const times = numericDates(payload, locale);
  return times.length > 0 ? { ...section(label, payload, content), times } : section(label, payload, content);
}

function formSections(form: RecordedExchange['requestForm'] & object, messages: TraceMessages, locale: Locale): TraceSection[] {
  const labels = messages.sections;
  const shown: Record<string, unknown> = {};
  const sections: TraceSection[] = [];
  for (const [name, value] of Object.entries(form)) {
    if (typeof value !== 'string' && isDecodedJwt(value)) {
      shown[name] = messages.signedJwtBelow;
      const request = name === 'request';
      sections.push({ label: request ? labels.requestObjectHeader : labels.clientAssertionHeader, content: json(value.header, messages) });
      // A register lookup's personal number (the claims request) is masked like the token's.
      sections.push(
        payloadSection(request ? labels.requestObjectPayload : labels.clientAssertionPayload, value.payload, json(value.payload, messages), locale),
      );
    } else {
      shown[name] = value;
    }
  }
  return [{ label: labels.formParameters, content: json(shown, messages) }, ...sections];
}

function responseSections(exchange: RecordedExchange, messages: TraceMessages): TraceSection[] {
  const labels = messages.sections;
  const { response, idToken } = exchange;
  if (!response) return [];
  if ('text' in response) return [{ label: labels.responseBody, content: response.text }];
  if (idToken) {
    const body = { ...(response.json as object), id_token: messages.idTokenSummary(idToken.parts === 5, idToken.length) };
    return [
      { label: labels.responseBody, content: json(body, messages) },
      { label: labels.idTokenJweHeader, content: json(idToken.header ?? messages.notDecodable, messages) },
    ];
  }
  return [{ label: labels.responseBody, content: json(exchange.step === 'jwks' ? shortenCertificates(response.json, messages) : response.json, messages) }];
}

/** The query of the authorization redirect (`client_id`, `request_uri`: no secret), or nothing when it has none. */
function redirectSections(url: string, messages: TraceMessages): TraceSection[] {
  let parameters: [string, string][];
  try {
    parameters = [...new URL(url).searchParams];
  } catch {
    return [];
  }
  return parameters.length === 0 ? [] : [{ label: messages.sections.queryParametersSent, content: json(Object.fromEntries(parameters), messages) }];
}

function noteSections(note: RecordedNote, certificate: CertificateSummary | undefined, messages: TraceMessages, locale: Locale): TraceSection[] {
  const labels = messages.sections;
  const { detail } = note;
  if (note.step === 'authorization_redirect' && note.url && !detail) return redirectSections(note.url, messages);
  if (!detail) return [];
  if (note.step === 'callback' && detail.parameters) return [{ label: labels.queryParameters, content: json(detail.parameters, messages) }];
  if (note.step === 'id_token') {
    const sections: TraceSection[] = [
      { label: labels.jweHeader, content: json(detail.jweHeader, messages) },
      { label: labels.signedIdTokenHeader, content: json(detail.jwsHeader, messages) },
      payloadSection(labels.signedIdTokenPayload, detail.payload, json(shortenPortraits(detail.payload, messages), messages), locale),
    ];
    if (certificate) sections.push({ label: labels.signingCertificate, content: json(certificate, messages) });
    return sections;
  }
  return [{ label: labels.detail, content: json(detail, messages) }];
}

/** What the trace is read with: the reader's language, and the signing certificate of a result. */
export interface TraceReading {
  locale: Locale;
  /** the certificate of the key that verified the ID token (the result's `signingCertificate`) */
  certificate?: CertificateSummary | undefined;
}

/**
 * The checks of the ID token, made one after the other, as one entry: a checklist, timed by the
 * last of them, where it is listed (after a JWKS fetch that choosing the key needed, which came
 * between the first check and the last), so the trace reads in time order.
 */
function checksEntry(checks: readonly RecordedCheck[], index: number, locale: Locale): TraceEntryView {
  const views = checks.map((check) => presentCheck(check, locale));
  const failed = views.find((check) => !check.passed);
  const t = CHECK_MESSAGES[locale];
  return {
    index,
    step: 'id_token',
    title: failed ? t.titleFailed(failed.label) : t.title,
    at: new Date(checks.at(-1)!.at).toISOString(),
    sections: [],
    expandable: true,
    checks: views,
    checksPassed: !failed,
  };
}

function exchangeEntry(event: RecordedExchange, index: number, messages: TraceMessages, locale: Locale): TraceEntryView {
  const sections = [...(event.requestForm ? formSections(event.requestForm, messages, locale) : []), ...responseSections(event, messages)];
  return {
    index,
    step: event.step,
    title: messages.steps[event.step],
    method: event.method,
    url: event.url,
    ...(event.status !== undefined ? { status: event.status } : {}),
    at: new Date(event.startedAt).toISOString(),
    durationMs: event.durationMs,
    ...(event.error ? { error: event.error } : {}),
    sections,
    expandable: sections.length > 0 || event.error !== undefined,
  };
}

function noteEntry(event: RecordedNote, index: number, certificate: CertificateSummary | undefined, messages: TraceMessages, locale: Locale): TraceEntryView {
  const redirect = event.step === 'authorization_redirect' && event.url;
  const sections = noteSections(event, certificate, messages, locale);
  return {
    index,
    step: event.step,
    title: event.fromCache
      ? messages.fromCache(messages.steps[event.step])
      : event.step === 'discovery' && event.detail?.endpoints
        ? messages.endpointsNotDiscovered
        : messages.steps[event.step],
    ...(event.url ? { url: event.url } : {}),
    ...(redirect ? { method: 'GET', status: 303 } : {}),
    ...(event.step === 'callback' ? { method: 'GET' } : {}),
    at: new Date(event.at).toISOString(),
    ...(event.fromCache ? { fromCache: true } : {}),
    sections,
    expandable: sections.length > 0,
  };
}

/**
 * A kept trace as the trace panel shows it, in `locale`; its numbers still to be disclosed
 * (disclosure.ts). The checks of the ID token, one event each in the kept trace, are shown as one
 * entry that lists them, where the last of them was made: after the JWKS request that choosing
 * the key may have needed.
 */
export function presentTrace(events: readonly RecordedEvent[], { locale, certificate }: TraceReading): TraceEntryView[] {
  const messages = TRACE_MESSAGES[locale];
  const checks = events.filter((event): event is RecordedCheck => event.type === 'check');
  const lastCheck = checks.at(-1);
  const entries: TraceEntryView[] = [];
  for (const event of events) {
    const index = entries.length + 1;
    if (event.type === 'check') {
      if (event === lastCheck) entries.push(checksEntry(checks, index, locale));
    } else {
      entries.push(event.type === 'http' ? exchangeEntry(event, index, messages, locale) : noteEntry(event, index, certificate, messages, locale));
    }
  }
  return entries;
}
