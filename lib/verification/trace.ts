/**
 * The protocol trace as a result or a failure keeps it: the facts of each exchange, as the core
 * recorded them (lib/oidc/trace.ts), with the protocol's secrets masked for good and its signed
 * JWTs decoded. Secrets (authorization codes, PKCE verifiers, `state`, `nonce`, access and
 * refresh tokens, JWT signatures) are masked here, before anything is stored: nothing that could
 * be used again is kept. Private keys are never in a trace at all.
 *
 * Everything else is decided when the trace is read (lib/view/trace-view.ts): titles and labels
 * in the reader's language, the national identity and document numbers masked or revealed, and
 * what presenter mode hides. So a trace kept in the store holds data, never text for a page.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { TraceCheck, TraceEvent, TraceExchange, TraceNote } from '@/lib/oidc/trace';

/** A secret as the trace keeps it: its first characters when it is long enough, and its length. */
export interface MaskedSecret {
  /** the first six characters of a secret longer than eight, else empty */
  masked: string;
  length: number;
}

/** A signed JWT we sent (a request object, a client assertion): decoded, its signature masked. */
export interface DecodedJwt {
  header: unknown;
  payload: unknown;
  signature: MaskedSecret;
}

/** A value of a form sent. */
export type RecordedValue = string | MaskedSecret | DecodedJwt;

/** An exchange as kept: its form's secrets masked, its response parsed, an ID token summarised. */
export interface RecordedExchange extends Omit<TraceExchange, 'requestForm' | 'responseBody'> {
  requestForm?: Record<string, RecordedValue>;
  /** the response body: parsed when it is JSON, else its text (at most 2,000 characters) */
  response?: { json: unknown } | { text: string };
  /** a token response's ID token, which `response` leaves out: how many parts, how long, its header */
  idToken?: { parts: number; length: number; header: unknown };
}

/** A step that did not go over the wire, its detail's secrets masked. */
export type RecordedNote = TraceNote;

/**
 * A check of the ID token as kept: what it compared and its verdict, the nonce masked, long
 * values cut (a hostile token's `iss` may be any length).
 */
export type RecordedCheck = TraceCheck;

export type RecordedEvent = RecordedExchange | RecordedNote | RecordedCheck;

/** Parameters and claims that are secrets wherever they appear: form fields, callback parameters, JWT claims, token responses. */
const SECRET_NAMES: ReadonlySet<string> = new Set(['code', 'code_verifier', 'state', 'nonce', 'access_token', 'refresh_token']);
/** Form fields that carry a signed JWT. */
const JWT_FIELDS: ReadonlySet<string> = new Set(['client_assertion', 'request']);
/** A response body that is not JSON is kept this far. */
const MAX_TEXT_CHARS = 2000;

export function maskSecret(value: string): MaskedSecret {
  return { masked: value.length > 8 ? value.slice(0, 6) : '', length: value.length };
}

export function isMaskedSecret(value: unknown): value is MaskedSecret {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const { masked, length } = value as Partial<MaskedSecret>;
  return keys.length === 2 && typeof masked === 'string' && typeof length === 'number';
}

export function isDecodedJwt(value: RecordedValue): value is DecodedJwt {
  return typeof value === 'object' && 'signature' in value && 'header' in value;
}

/** A compact JWS's or JWE's protected header (jose), or undefined when it has none that decodes. */
function headerOf(token: string): unknown {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return undefined;
  }
}

/** A JSON object with the members named in SECRET_NAMES masked (its top level: a JWT's claims, a response). */
function maskSecretMembers(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, SECRET_NAMES.has(name) && typeof item === 'string' ? maskSecret(item) : item]));
}

/** A compact JWS decoded (jose), its secret claims and its signature masked; undefined when it is not one. */
function decodeJws(token: string): DecodedJwt | undefined {
  try {
    const [, , signature] = token.split('.');
    return { header: decodeProtectedHeader(token), payload: maskSecretMembers(decodeJwt(token)), signature: maskSecret(signature!) };
  } catch {
    return undefined;
  }
}

function recordForm(form: Record<string, string>): Record<string, RecordedValue> {
  return Object.fromEntries(
    Object.entries(form).map(([name, value]) => {
      if (JWT_FIELDS.has(name)) return [name, decodeJws(value) ?? maskSecret(value)];
      return [name, SECRET_NAMES.has(name) ? maskSecret(value) : value];
    }),
  );
}

function recordResponse(exchange: TraceExchange): Pick<RecordedExchange, 'response' | 'idToken'> {
  const body = exchange.responseBody;
  if (!body) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { response: { text: body.slice(0, MAX_TEXT_CHARS) } };
  }
  if (exchange.step === 'token' && parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { id_token: idToken, ...rest } = parsed as Record<string, unknown>;
    const response = { json: maskSecretMembers(rest) };
    if (typeof idToken !== 'string') return { response };
    return { response, idToken: { parts: idToken.split('.').length, length: idToken.length, header: headerOf(idToken) ?? null } };
  }
  return { response: { json: parsed } };
}

/** The signing key as the trace keeps it: which key, not its material (its certificate is kept with the result). */
function keyReference(key: unknown): unknown {
  if (!key || typeof key !== 'object') return undefined;
  const { kid, kty, alg, use, crv } = key as Record<string, unknown>;
  return Object.fromEntries(Object.entries({ kid, kty, alg, use, crv }).filter(([, value]) => value !== undefined));
}

function recordNote(note: TraceNote): RecordedNote {
  const { detail } = note;
  if (!detail) return note;
  if (note.step === 'callback' && detail.parameters && typeof detail.parameters === 'object') {
    const parameters = Object.fromEntries(
      Object.entries(detail.parameters as Record<string, string>).map(([name, value]) => [name, SECRET_NAMES.has(name) ? maskSecret(value) : value]),
    );
    return { ...note, detail: { ...detail, parameters } };
  }
  if (note.step === 'id_token') {
    const { payload, signingKey, ...rest } = detail;
    return { ...note, detail: { ...rest, payload: maskSecretMembers(payload), ...(signingKey ? { signingKey: keyReference(signingKey) } : {}) } };
  }
  return note;
}

/** A value a check compared, as kept: at most MAX_CHECK_VALUE_CHARS of it. */
const MAX_CHECK_VALUE_CHARS = 500;

function boundedValue(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    // nested too deeply to write (a hostile token's member): its kind is all that is kept
    return '(not displayable)';
  }
  if (text.length <= MAX_CHECK_VALUE_CHARS) return value;
  return `${text.slice(0, MAX_CHECK_VALUE_CHARS)}… (${text.length})`;
}

/** A check as kept: the values it compared bounded, secrets (the nonce) masked. */
export function recordCheck(check: TraceCheck): RecordedCheck {
  const value = (item: unknown) => (SECRET_NAMES.has(check.check) && typeof item === 'string' ? maskSecret(item) : boundedValue(item));
  const { expected, received, detail, ...rest } = check;
  return {
    ...rest,
    // the core's facts, from what the service sent (a hostile JWKS may publish any number of kids)
    ...(detail === undefined ? {} : { detail: Object.fromEntries(Object.entries(detail).map(([name, item]) => [name, boundedValue(item)])) }),
    ...(expected === undefined ? {} : { expected: value(expected) }),
    ...(received === undefined ? {} : { received: value(received) }),
  };
}

/** What a failure other than a check compared (an IdvError's cause), as kept. */
export interface RecordedComparison {
  /** the claim, parameter or header member compared */
  claim?: string;
  expected?: unknown;
  received?: unknown;
}

/**
 * The comparison a failure's cause names (`claim`, `expected`, `actual`), as kept: the values
 * bounded, a secret's masked; undefined when the cause names none.
 */
export function recordComparison(cause: { claim?: unknown; expected?: unknown; actual?: unknown }): RecordedComparison | undefined {
  if (cause.expected === undefined && cause.actual === undefined) return undefined;
  const claim = typeof cause.claim === 'string' ? cause.claim.slice(0, 40) : undefined;
  const value = (item: unknown) => (claim !== undefined && SECRET_NAMES.has(claim) && typeof item === 'string' ? maskSecret(item) : boundedValue(item));
  return {
    ...(claim === undefined ? {} : { claim }),
    ...(cause.expected === undefined ? {} : { expected: value(cause.expected) }),
    ...(cause.actual === undefined ? {} : { received: value(cause.actual) }),
  };
}

/** The trace of a flow as it is kept: its secrets masked, its JWTs decoded. Pure. */
export function recordTrace(events: readonly TraceEvent[]): RecordedEvent[] {
  return events.map((event) => {
    if (event.type === 'note') return recordNote(event);
    if (event.type === 'check') return recordCheck(event);
    const exchange: RecordedExchange = { ...event, ...(event.requestForm ? { requestForm: recordForm(event.requestForm) } : {}), ...recordResponse(event) };
    // the body is kept parsed, as `response`
    delete (exchange as { responseBody?: string }).responseBody;
    return exchange;
  });
}
