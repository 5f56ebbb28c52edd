import 'server-only';
/**
 * The parts of the result page served on their own, so that the page stays small: the portrait
 * (as an image, not a data: URI that the page's HTML and its React payload would each carry)
 * and the protocol trace's detail (loaded when the person opens an exchange). Both belong to the
 * browser's own result, like the page: another browser gets 404. Personal data: never cached by
 * anything shared, never embedded by another site.
 */
import { DEFAULT_LOCALE } from '@/lib/i18n/locale';
import { isStoreError } from '@/lib/store/store';
import { wantsNumbersRevealed } from '@/lib/view/masking';
import { buildResultView } from '@/lib/view/result-view';
import { presenterReplacements } from '@/lib/view/presenter';
import { maskTrace } from '@/lib/view/trace-view';
import { preferences } from './preferences';
import { currentResult } from './verification';

const PRIVATE_HEADERS = {
  'cache-control': 'private, no-store',
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

function notFound(what: string): Response {
  return new Response(`No ${what}: this browser has no verified identity (signed out, expired, or none yet).`, {
    status: 404,
    headers: { ...PRIVATE_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });
}

async function resultOrRefusal() {
  try {
    return { result: await currentResult() };
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return {
      refusal: new Response('The state store did not answer; try again shortly.', {
        status: 503,
        headers: { ...PRIVATE_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(error.retryAfterSeconds) },
      }),
    };
  }
}

/**
 * A portrait as presenter mode sends it: 12 pixels wide, blurred, so that nobody can be
 * recognised from it, nor from the file the browser receives (the page blurs it further).
 */
async function unrecognisable(bytes: Buffer): Promise<Buffer | undefined> {
  const { default: sharp } = await import('sharp');
  // A portrait is a few hundred pixels a side: a bomb of a PNG is refused before it is decoded.
  return sharp(bytes, { limitInputPixels: 4096 * 4096 })
    .resize({ width: 12 })
    .blur(0.8)
    .jpeg({ quality: 60 })
    .toBuffer()
    .catch(() => undefined);
}

/**
 * GET /result/portrait: the verified portrait's bytes (JPEG or PNG, as the ID token carried
 * them); in presenter mode a few pixels of it, blurred.
 */
export async function portraitResponse(): Promise<Response> {
  const { result, refusal } = await resultOrRefusal();
  if (refusal) return refusal;
  if (!result) return notFound('portrait');
  // Only the portrait is read, which no language changes.
  const { portrait } = buildResultView(result.verifiedClaims, result.selection, new Date().toISOString().slice(0, 10), DEFAULT_LOCALE).identity;
  // The view only ever holds a data:image/jpeg or data:image/png base64 URI (verified-claims.ts).
  const match = portrait.state === 'value' ? /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/=]+)$/.exec(portrait.src) : null;
  if (!match) return notFound('portrait');
  const bytes = Buffer.from(match[2]!, 'base64');
  if ((await preferences()).presenter) {
    // An image that does not decode is not shown at all while presenting.
    const blurred = await unrecognisable(bytes);
    return blurred ? new Response(new Uint8Array(blurred), { headers: { ...PRIVATE_HEADERS, 'content-type': 'image/jpeg' } }) : notFound('portrait');
  }
  return new Response(bytes, { headers: { ...PRIVATE_HEADERS, 'content-type': match[1]! } });
}

/**
 * GET /result/trace: every exchange of the verification with its detail, as JSON; national
 * identity and document numbers masked as on the page unless `?reveal=numbers`; in presenter mode
 * names, dates of birth and the subject hidden as well, and the numbers whatever the query says.
 */
export async function traceResponse(query: URLSearchParams): Promise<Response> {
  const { result, refusal } = await resultOrRefusal();
  if (refusal) return refusal;
  if (!result) return notFound('trace');
  const { presenter } = await preferences();
  const trace = maskTrace(result.trace, wantsNumbersRevealed(query), presenter ? presenterReplacements(result.verifiedClaims, result.idToken.claims.sub) : undefined);
  return new Response(JSON.stringify(trace, null, 2), { headers: { ...PRIVATE_HEADERS, 'content-type': 'application/json; charset=utf-8' } });
}
