/**
 * `login_hint` (OpenID Connect Core 1.0 §3.1.2.1): "a hint to the Authorization Server about the
 * login identifier the End-User might use". The spec does not list it; the emulator takes it at
 * both levels, since it is a standard parameter, as the id of a test persona to pre-select on the
 * authorization page and in the simulated app. A hint that names no persona is kept and ignored
 * (§3.1.2.1: "a hint"), never an error; a hint that is not a string of printable characters of a
 * reasonable length is refused like any other malformed parameter.
 * @see DECISIONS.md "A persona suggested by the relying party (login_hint)"
 */
import { InvalidRequest, describeValue } from '../errors';

/** The parameter's (and the request object claim's) name. */
export const LOGIN_HINT = 'login_hint';

/** The longest hint taken: a persona id is a few dozen characters; an e-mail address fits too. */
export const MAX_LOGIN_HINT_LENGTH = 256;

/**
 * The hint, checked, or undefined when absent or empty (RFC 6749 §3.1: a parameter without a value
 * is omitted).
 * @param where how the error names it: "parameter" (the PAR form) or "request object claim"
 * @throws InvalidRequest for a value that is not a string, is too long, or holds control characters
 */
export function checkLoginHint(value: unknown, where: 'parameter' | 'request object claim'): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new InvalidRequest(`${where} '${LOGIN_HINT}' must be a string, not ${describeValue(value)}`);
  if (value.length > MAX_LOGIN_HINT_LENGTH) throw new InvalidRequest(`${where} '${LOGIN_HINT}' must be at most ${MAX_LOGIN_HINT_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new InvalidRequest(`${where} '${LOGIN_HINT}' must not contain control characters`);
  return value;
}
