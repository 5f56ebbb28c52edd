/**
 * Reading request parameters: urlencoded form bodies (PAR, token, the identity app's form) and
 * query strings (the authorization endpoint), with the rules RFC 6749 §3.1 sets for both.
 * @see spec 4.1, 4.3 (`Content-Type: application/x-www-form-urlencoded`); RFC 6749 §3.1, §3.2
 */
import { MAX_FORM_BYTES } from '../config';
import { InvalidRequest, RequestTooLarge, describeValue } from '../errors';
import { describeUnlisted } from './levels';

/**
 * Parameters of one request. RFC 6749 §3.1: a parameter sent without a value is treated as
 * omitted, and none may appear twice (duplicates are refused when the parameters are read).
 * @see RFC 6749 §3.1
 */
export class RequestParameters {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  /** @throws InvalidRequest when a parameter appears more than once (RFC 6749 §3.1) */
  static from(search: URLSearchParams): RequestParameters {
    const values = new Map<string, string>();
    for (const [name, value] of search) {
      if (values.has(name)) {
        throw new InvalidRequest(`parameter ${describeValue(name)} is included more than once`);
      }
      values.set(name, value);
    }
    return new RequestParameters(values);
  }

  /** The value, or undefined when absent or empty. */
  get(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined || value === '' ? undefined : value;
  }

  /** @throws InvalidRequest naming the parameter when it is absent or empty */
  require(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) throw new InvalidRequest(`required parameter '${name}' is missing`);
    if (value === '') throw new InvalidRequest(`required parameter '${name}' is empty`);
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** The names of the parameters with a value; one sent without a value counts as omitted (RFC 6749 §3.1). */
  names(): string[] {
    return [...this.values.keys()].filter((name) => this.has(name));
  }
}

/**
 * The strict level's rule for a request's parameters: none beyond the spec's table for the
 * endpoint (`listed`, from `section`) and the standard ones the emulator takes besides (`also`).
 * At the default level others are ignored (RFC 6749 §3.1).
 * @throws InvalidRequest naming the parameters that are not listed
 * @see spec 4.1, 4.2, 4.3; DECISIONS.md "Levels"
 */
export function onlyListedParameters(parameters: RequestParameters, listed: readonly string[], section: string, also: readonly string[] = []): void {
  const unlisted = describeUnlisted(parameters.names(), [...listed, ...also]);
  if (unlisted) {
    throw new InvalidRequest(`unexpected parameter(s) ${unlisted}: ${section} lists only ${listed.join(', ')} (strict level)`);
  }
}

/**
 * Reads an `application/x-www-form-urlencoded` body of at most `limitBytes`.
 * Wrong media type → 400, too large → 413, bytes that are not UTF-8 → 400; all `invalid_request`.
 * @see spec 4.1, 4.3; RFC 6749 §3.2
 */
export async function readFormBody(request: Request, limitBytes = MAX_FORM_BYTES): Promise<RequestParameters> {
  checkContentType(request.headers.get('content-type'));
  const bytes = await readBody(request, limitBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequest('request body is not valid UTF-8');
  }
  return RequestParameters.from(new URLSearchParams(text));
}

/** The query string of a URL, with duplicates refused. @see RFC 6749 §3.1 */
export function queryParameters(url: URL): RequestParameters {
  return RequestParameters.from(url.searchParams);
}

function checkContentType(header: string | null): void {
  const [mediaType = '', ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/x-www-form-urlencoded') {
    throw new InvalidRequest(`Content-Type must be application/x-www-form-urlencoded, not ${header ? describeValue(header) : 'absent'}`);
  }
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=').map((part) => part.trim().replace(/^"|"$/g, ''));
    if (name === 'charset' && value !== 'utf-8') {
      throw new InvalidRequest('form bodies must be encoded as UTF-8');
    }
  }
}

/**
 * Reads the body chunk by chunk so a huge body is refused without being buffered.
 * @throws RequestTooLarge (413) over `limitBytes`, InvalidRequest when it cannot be read
 */
export async function readBody(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limitBytes) throw new RequestTooLarge(limitBytes);
  if (!request.body) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        await reader.cancel().catch(() => undefined);
        throw new RequestTooLarge(limitBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RequestTooLarge) throw error;
    throw new InvalidRequest('request body could not be read');
  }

  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
