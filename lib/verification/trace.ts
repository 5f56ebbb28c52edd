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
import type { TraceExchange, TraceNote } from '@/lib/oidc/trace';

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

export type RecordedEvent = RecordedExchange | RecordedNote;

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

function decodePart(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A JSON object with the members named in SECRET_NAMES masked (its top level: a JWT's claims, a response). */
function maskSecretMembers(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, SECRET_NAMES.has(name) && typeof item === 'string' ? maskSecret(item) : item]));
}

/** A compact JWS decoded, its secret claims and its signature masked; undefined when it is not one. */
function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const decoded = { header: decodePart(header), payload: decodePart(payload) };
  if (decoded.header === undefined || decoded.payload === undefined) return undefined;
  return { header: decoded.header, payload: maskSecretMembers(decoded.payload), signature: maskSecret(signature) };
}

function recordForm(form: Record<string, string>): Record<string, RecordedValue> {
  return Object.fromEntries(
    Object.entries(form).map(([name, value]) => {
      if (JWT_FIELDS.has(name)) return [name, decodeJwt(value) ?? maskSecret(value)];
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
    const parts = idToken.split('.');
    return { response, idToken: { parts: parts.length, length: idToken.length, header: decodePart(parts[0] ?? '') ?? null } };
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

/** The trace of a flow as it is kept: its secrets masked, its JWTs decoded. Pure. */
export function recordTrace(events: readonly (TraceExchange | TraceNote)[]): RecordedEvent[] {
  return events.map((event) => {
    if (event.type === 'note') return recordNote(event);
    const exchange: RecordedExchange = { ...event, ...(event.requestForm ? { requestForm: recordForm(event.requestForm) } : {}), ...recordResponse(event) };
    // the body is kept parsed, as `response`
    delete (exchange as { responseBody?: string }).responseBody;
    return exchange;
  });
}
