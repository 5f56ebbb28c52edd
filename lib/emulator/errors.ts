/**
 * Every error the emulator reports, one class per OAuth error code.
 *
 * Each class knows its HTTP status and whether it may be sent to the client's redirect URI
 * (only after the redirect URI has been verified: RFC 6749 §4.1.2.1). Handlers throw them; the
 * router turns them into RFC 6749 §5.2 JSON bodies, the authorization endpoint into HTML pages or
 * redirects.
 * @see spec part 7; RFC 6749 §4.1.2.1, §5.2; RFC 9126 §2.3; RFC 9101 §6.2
 */
import type { z } from 'zod';

/**
 * The situations a person may meet on the emulator's pages, named so the pages can explain them
 * in the reader's language (views/messages.ts). The OAuth `error` and `error_description` stay
 * the protocol's English whatever the page's language.
 */
export type PageReason =
  | 'verification_unknown'
  | 'verification_completed'
  | 'wrong_browser'
  | 'open_on_another_device'
  | 'too_many_phones'
  | 'device_link_invalid'
  | 'open_app_from_link'
  | 'unknown_step'
  | 'unknown_client'
  | 'request_uri_used'
  | 'request_uri_unknown'
  | 'request_uri_other_client'
  | 'too_many_requests'
  | 'user_cancelled'
  | 'face_check_failed'
  | 'issuer_check_required'
  | 'qa_not_allowed'
  | 'cross_site_post';

/**
 * A protocol error with its RFC 6749 `error` code, HTTP status and a description that names the
 * parameter or claim at fault.
 * @see spec part 7; RFC 6749 §5.2
 */
export class OAuthError extends Error {
  /** RFC 6749 §4.1.2.1 / §5.2 `error` code */
  readonly error: string;
  readonly status: number;
  /** true only for errors the authorization endpoint may report to the (verified) redirect URI */
  readonly redirectable: boolean;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>>;
  /** what the situation is, for a page to explain in its reader's language (see `because`) */
  declare reason?: PageReason;
  /** the used-up flow a page was reached for again (the Back button): whose it was, to link back (see `usedBy`) */
  declare usedFlow?: { clientId: string; redirectOrigin: string };

  constructor(error: string, status: number, description: string, options: { redirectable?: boolean; headers?: Record<string, string> } = {}) {
    const safe = sanitizeDescription(description);
    super(`${error}: ${safe}`);
    this.name = new.target.name;
    this.error = error;
    this.status = status;
    this.description = safe;
    this.redirectable = options.redirectable ?? false;
    this.headers = options.headers ?? {};
  }

  /** Names the situation for the pages (PageReason); the protocol's code and description are unchanged. */
  because(reason: PageReason): this {
    this.reason = reason;
    return this;
  }

  /** Names the flow this error's page was reached for, once used up; the protocol's code and description are unchanged. */
  usedBy(flow: { clientId: string; redirectOrigin: string } | undefined): this {
    if (flow) this.usedFlow = flow;
    return this;
  }

  /** The RFC 6749 §5.2 body; never cached, since it may describe a credential. */
  toResponse(): Response {
    return Response.json(
      { error: this.error, error_description: this.description },
      {
        status: this.status,
        headers: { 'Cache-Control': 'no-store', ...this.headers },
      },
    );
  }
}

/** Missing, duplicated or malformed parameters (part 7: 400). @see RFC 6749 §5.2 */
export class InvalidRequest extends OAuthError {
  constructor(description: string, status = 400, headers?: Record<string, string>) {
    super('invalid_request', status, description, { headers });
  }
}

/** A form body over the size limit: still `invalid_request`, with the status that says why. @see RFC 9110 §15.5.14 */
export class RequestTooLarge extends InvalidRequest {
  constructor(limitBytes: number) {
    super(`request body exceeds ${limitBytes} bytes`, 413);
  }
}

/** Client authentication failed (part 7: 401). @see RFC 6749 §5.2; RFC 7521 §4.2.1 */
export class InvalidClient extends OAuthError {
  constructor(description: string) {
    super('invalid_client', 401, description);
  }
}

/** The client is not entitled to what it asked for (part 7: 403). @see spec 2.3 "Electronic record evidence element" */
export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super('unauthorized_client', 403, description);
  }
}

/** Part 7: 400. @see spec 2.2 `scope` */
export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super('invalid_scope', 400, description);
  }
}

/** The code is unknown, expired, used, or bound to something else. @see RFC 6749 §5.2 */
export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', 400, description);
  }
}

/** @see RFC 6749 §5.2 */
export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super('unsupported_grant_type', 400, description);
  }
}

/**
 * A `request_uri` the authorization endpoint cannot use (unknown, expired, used, other client).
 * Shown to the user, never redirected: the redirect URI is not known yet.
 * @see RFC 9101 §6.2; RFC 9126 §4
 */
export class InvalidRequestUri extends OAuthError {
  constructor(description: string) {
    super('invalid_request_uri', 400, description);
  }
}

/** The user cancelled, or the verification failed; sent to the verified redirect URI. @see RFC 6749 §4.1.2.1 */
export class AccessDenied extends OAuthError {
  constructor(description: string) {
    super('access_denied', 403, description, { redirectable: true });
  }
}

/** Part 7: 503. Raised when in-memory state is full rather than growing without bound. */
export class TemporarilyUnavailable extends OAuthError {
  constructor(description: string, retryAfterSeconds = 60) {
    super('temporarily_unavailable', 503, description, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

/**
 * Too many requests from one client address: 429 (RFC 6585 §4) with `Retry-After`. Part 7 has no
 * error code for it; `temporarily_unavailable` is the registered OAuth code for "try again later"
 * (RFC 6749 §4.1.2.1), so a client that reads only the code retries later, as it should.
 * @see DECISIONS.md "Rate limits"
 */
export class TooManyRequests extends OAuthError {
  constructor(
    description: string,
    readonly retryAfterSeconds: number,
  ) {
    super('temporarily_unavailable', 429, description, { headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.reason = 'too_many_requests';
  }
}

/** Part 7: 500. Only for faults of the emulator itself, never for bad input. */
export class ServerError extends OAuthError {
  constructor(description = 'unexpected error in the emulator') {
    super('server_error', 500, description);
  }
}

/** A path the emulator does not serve. */
export class NotFound extends OAuthError {
  constructor(path: string) {
    super('not_found', 404, `no resource at ${describeValue(path)}`);
  }
}

/** An endpoint called with the wrong method. @see RFC 9110 §15.5.6 (Allow is required) */
export class MethodNotAllowed extends InvalidRequest {
  constructor(method: string, allowed: readonly string[]) {
    super(`method ${describeValue(method)} is not allowed here; use ${allowed.join(' or ')}`, 405, {
      // HEAD is answered wherever GET is (index.ts).
      Allow: (allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed).join(', '),
    });
  }
}

/**
 * RFC 6749 §5.2 limits `error_description` to %x20-21 / %x23-5B / %x5D-7E. Descriptions quote
 * client input, so anything else is replaced rather than trusted.
 */
function sanitizeDescription(description: string): string {
  return description.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '?').slice(0, 500);
}

/**
 * A short, quoted rendering of a value taken from a request, for error descriptions: the value
 * helps the caller find the mistake, but is cut short so a description never echoes a payload.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    return `'${value.length > 80 ? `${value.slice(0, 80)}...` : value}'`;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/**
 * Zod error map for every schema the emulator parses input with: messages say what the value
 * must be, in words an integrator can act on, and never echo the input.
 */
export const issueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)}`;
    case 'invalid_value': {
      // Single quotes: RFC 6749 §5.2 does not allow double quotes in error_description.
      const values = issue.values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
    }
    case 'unrecognized_keys':
      return `has unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
    case 'too_small':
      return issue.origin === 'array' ? `must have at least ${String(issue.minimum)} element(s)` : 'must not be empty';
    default:
      return undefined;
  }
};

function article(expected: string): string {
  if (expected === 'null' || expected === 'undefined') return expected;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * The first issue as `path: message`, with paths written as in JavaScript
 * (`[1].redirect_uris[0]`, `id_token.verified_claims.claims`).
 */
export function describeIssue(issue: z.core.$ZodIssue, root = ''): string {
  let path = root;
  for (const segment of issue.path) {
    path += typeof segment === 'number' ? `[${segment}]` : path === '' ? String(segment) : `.${String(segment)}`;
  }
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
