/**
 * Turns a recorded protocol trace (lib/oidc/trace.ts) into what the trace panel shows: each
 * exchange with its JWTs decoded (header and payload) and its secrets masked — authorization
 * codes, PKCE verifiers, `state` and `nonce` (as form fields, callback parameters and claims of a
 * decoded JWT alike), signatures — partly, and for good; private keys are never in a trace at
 * all. National identity and document numbers in the ID token are kept in the stored trace but
 * masked on the way out (`maskTrace`), the same way as on the result cards, unless the person
 * revealed them (masking.ts). The portrait inside an ID token is shortened. Pure: certificates
 * are described by the caller.
 *
 * The trace is recorded (and stored, served and downloaded) with English titles and labels; it is
 * shown in the reader's language by `localizeTrace`, so that a change of language applies to a
 * trace already recorded (trace-messages.ts).
 */
import type { Locale } from '@/lib/i18n/locale';
import type { TraceEvent, TraceStep } from '@/lib/oidc/trace';
import type { CertificateSummary } from '@/lib/verification/signing-certificate';
import { maskValuesInJson, personalValues, replaceInJson } from './masking';
import { hideIdentityInJson } from './presenter';
import { TRACE_MESSAGES, type TraceMessages } from './trace-messages';

export interface TraceSection {
  label: string;
  /** pretty JSON or plain text */
  content: string;
  /**
   * The national identity and document numbers `content` holds in full: stored, never sent
   * (`maskTrace` masks them, or reveals them, and drops this list).
   */
  personal?: string[];
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
}

/** The words a trace is recorded with. */
const RECORDED = TRACE_MESSAGES.en;
const LABELS = RECORDED.sections;

/** Shows enough of a secret to recognise it, never enough to use it. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '•'.repeat(value.length);
  return `${value.slice(0, 6)}…${'•'.repeat(4)} (${value.length} characters)`;
}

/**
 * A value as indented JSON. What a peer sent may be nested too deeply for JSON.stringify (a
 * RangeError); it is then shown as not displayable, so the trace (and the failure it belongs to)
 * is still recorded.
 */
function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return '(not displayable: nested too deeply)';
  }
}

function decodePart(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A compact JWS shown as its decoded header and payload, with the signature masked. */
function decodedJws(token: string): { header: unknown; payload: unknown; signature: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const decoded = { header: decodePart(header), payload: decodePart(payload), signature: maskSecret(signature) };
  return decoded.header === undefined || decoded.payload === undefined ? undefined : decoded;
}

/** The portrait inside an ID token is shortened in the trace. */
export function shortenPortraits(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('data:image/') && value.length > 80) {
    return `${value.slice(0, 48)}… (${value.length} characters)`;
  }
  if (Array.isArray(value)) return value.map(shortenPortraits);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenPortraits(v)]));
  }
  return value;
}

/** Certificates in a JWKS are long; their start is enough to recognise them. */
function shortenCertificates(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { keys?: unknown }).keys)) return body;
  return {
    ...body,
    keys: (body as { keys: unknown[] }).keys.map((key) =>
      key && typeof key === 'object' && Array.isArray((key as { x5c?: unknown }).x5c)
        ? { ...key, x5c: (key as { x5c: unknown[] }).x5c.map((c) => (typeof c === 'string' ? `${c.slice(0, 32)}… (${c.length} characters)` : c)) }
        : key,
    ),
  };
}

/** Protocol secrets: masked wherever they appear, as form fields, callback parameters or JWT claims. */
const MASKED_PARAMETERS = new Set(['code', 'code_verifier', 'state', 'nonce']);

/** A decoded JWT payload (or any JSON object) with its protocol secrets masked. */
function maskSecretClaims(payload: unknown): unknown {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [name, MASKED_PARAMETERS.has(name) && typeof value === 'string' ? maskSecret(value) : value]),
  );
}

function formSections(form: Record<string, string>): TraceSection[] {
  const shown: Record<string, string> = {};
  const sections: TraceSection[] = [];
  for (const [name, value] of Object.entries(form)) {
    if (name === 'client_assertion' || name === 'request') {
      const decoded = decodedJws(value);
      shown[name] = decoded ? '(signed JWT, decoded below)' : maskSecret(value);
      if (decoded) {
        const request = name === 'request';
        sections.push({ label: request ? LABELS.requestObjectHeader : LABELS.clientAssertionHeader, content: json(decoded.header) });
        // A register lookup's personal number (the claims request) is masked like the token's.
        const personal = [...personalValues(decoded.payload)];
        sections.push({ label: request ? LABELS.requestObjectPayload : LABELS.clientAssertionPayload, content: json(maskSecretClaims(decoded.payload)), ...(personal.length > 0 ? { personal } : {}) });
      }
    } else {
      shown[name] = MASKED_PARAMETERS.has(name) ? maskSecret(value) : value;
    }
  }
  return [{ label: LABELS.formParameters, content: json(shown) }, ...sections];
}

function responseSections(step: TraceStep, body: string | undefined): TraceSection[] {
  if (!body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [{ label: LABELS.responseBody, content: body.slice(0, 2000) }];
  }
  if (step === 'token' && parsed && typeof parsed === 'object' && typeof (parsed as { id_token?: unknown }).id_token === 'string') {
    const idToken = (parsed as { id_token: string }).id_token;
    const parts = idToken.split('.');
    return [
      { label: LABELS.responseBody, content: json({ ...parsed, id_token: `(${parts.length === 5 ? 'JWE' : 'token'}, ${idToken.length} characters; header below)` }) },
      { label: LABELS.idTokenJweHeader, content: json(decodePart(parts[0] ?? '') ?? '(not decodable)') },
    ];
  }
  return [{ label: LABELS.responseBody, content: json(step === 'jwks' ? shortenCertificates(parsed) : parsed) }];
}

function noteSections(step: TraceStep, detail: Record<string, unknown> | undefined, describe: (x5c: string) => CertificateSummary | undefined): TraceSection[] {
  if (!detail) return [];
  if (step === 'callback') {
    const parameters = (detail.parameters ?? {}) as Record<string, string>;
    const shown = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, MASKED_PARAMETERS.has(k) ? maskSecret(v) : v]));
    return [{ label: LABELS.queryParameters, content: json(shown) }];
  }
  if (step === 'id_token') {
    const personal = [...personalValues(detail.payload)];
    const sections: TraceSection[] = [
      { label: LABELS.jweHeader, content: json(detail.jweHeader) },
      { label: LABELS.signedIdTokenHeader, content: json(detail.jwsHeader) },
      {
        label: LABELS.signedIdTokenPayload,
        content: json(shortenPortraits(maskSecretClaims(detail.payload))),
        ...(personal.length > 0 ? { personal } : {}),
      },
    ];
    const x5c = (detail.signingKey as { x5c?: unknown } | undefined)?.x5c;
    const certificate = Array.isArray(x5c) && typeof x5c[0] === 'string' ? describe(x5c[0]) : undefined;
    if (certificate) sections.push({ label: LABELS.signingCertificate, content: json(certificate) });
    return sections;
  }
  return [{ label: LABELS.detail, content: json(detail) }];
}

/**
 * @param describeCertificate reads a base64 DER certificate (the caller has an X.509 parser)
 */
export function presentTrace(
  events: readonly TraceEvent[],
  describeCertificate: (x5c: string) => CertificateSummary | undefined = () => undefined,
): TraceEntryView[] {
  return events.map((event, index) => {
    if (event.type === 'http') {
      const sections = [
        ...(event.requestForm ? formSections(event.requestForm) : []),
        ...responseSections(event.step, event.responseBody),
      ];
      return {
        index: index + 1,
        step: event.step,
        title: RECORDED.steps[event.step],
        method: event.method,
        url: event.url,
        ...(event.status !== undefined ? { status: event.status } : {}),
        at: new Date(event.startedAt).toISOString(),
        durationMs: event.durationMs,
        ...(event.error ? { error: event.error } : {}),
        sections,
      };
    }
    const redirect = event.step === 'authorization_redirect' && event.url;
    return {
      index: index + 1,
      step: event.step,
      title: event.fromCache
        ? RECORDED.fromCache(RECORDED.steps[event.step])
        : event.step === 'discovery' && event.detail?.endpoints
          ? RECORDED.endpointsNotDiscovered
          : RECORDED.steps[event.step],
      ...(event.url ? { url: event.url } : {}),
      ...(redirect ? { method: 'GET', status: 303 } : {}),
      ...(event.step === 'callback' ? { method: 'GET' } : {}),
      at: new Date(event.at).toISOString(),
      ...(event.fromCache ? { fromCache: true } : {}),
      sections: noteSections(event.step, event.detail, describeCertificate),
    };
  });
}

/**
 * The trace as it leaves the server: each section's national identity and document numbers
 * masked (last four characters, as on the result cards) unless `reveal`, and the list of them
 * dropped either way. `presenter`: presenter mode's replacements (presenter.ts) as well, the
 * numbers masked whatever `reveal` says.
 */
export function maskTrace(entries: readonly TraceEntryView[], reveal: boolean, presenter?: ReadonlyMap<string, string>): TraceEntryView[] {
  const masking = !reveal || presenter !== undefined;
  return entries.map((entry) => ({
    ...entry,
    sections: entry.sections.map(({ personal, ...section }) => {
      let content = personal && masking ? maskValuesInJson(section.content, personal) : section.content;
      if (presenter) content = replaceInJson(hideIdentityInJson(content), presenter);
      return content === section.content ? section : { ...section, content };
    }),
  }));
}

type SectionKey = keyof TraceMessages['sections'];
/** Each recorded section label, and the message it was written from. */
const SECTION_KEYS: ReadonlyMap<string, SectionKey> = new Map(Object.entries(LABELS).map(([key, label]) => [label, key as SectionKey]));

/** A recorded title in `messages`' language; one this module did not write is kept as it is. */
function localizedTitle(entry: TraceEntryView, messages: TraceMessages): string {
  const recorded = RECORDED.steps[entry.step] as string | undefined;
  if (recorded === undefined) return entry.title;
  if (entry.title === recorded) return messages.steps[entry.step];
  if (entry.title === RECORDED.fromCache(recorded)) return messages.fromCache(messages.steps[entry.step]);
  if (entry.title === RECORDED.endpointsNotDiscovered) return messages.endpointsNotDiscovered;
  return entry.title;
}

/**
 * A trace (as recorded: with English titles and labels) as a reader of `locale` sees it: each
 * step's title and each section's label in their language. What the exchanges carry (contents,
 * methods, URLs, statuses, errors) is unchanged, and so is a title or label this module did not
 * write. In English it reads as recorded.
 */
export function localizeTrace(entries: readonly TraceEntryView[], locale: Locale): TraceEntryView[] {
  const messages = TRACE_MESSAGES[locale];
  return entries.map((entry) => ({
    ...entry,
    title: localizedTitle(entry, messages),
    sections: entry.sections.map((section) => {
      const key = SECTION_KEYS.get(section.label);
      return key ? { ...section, label: messages.sections[key] } : section;
    }),
  }));
}
