import 'server-only';
/**
 * The parts of the result page served on their own, so that the page stays small: the portrait
 * (as an image, not a data: URI that the page's HTML and its React payload would each carry)
 * and the protocol trace's detail (loaded when the person opens an exchange). Both belong to the
 * browser's own result, like the page: another browser gets 404. Personal data: never cached by
 * anything shared, never embedded by another site.
 */
import { isStoreError } from '@/lib/store/store';
import { portraitOf } from '@/lib/verification/verified-identity';
import { disclosureFor, discloseTrace, portraitDisclosure } from '@/lib/view/disclosure';
import { presentTrace } from '@/lib/view/trace-view';
import { preferences } from './preferences';
import { services } from './services';
import { currentBrowser } from './session';
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
    return { result: await currentResult(await services(), await currentBrowser()) };
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
export async function portraitResponse(query: URLSearchParams): Promise<Response> {
  const { result, refusal } = await resultOrRefusal();
  if (refusal) return refusal;
  if (!result) return notFound('portrait');
  const portrait = portraitOf(result.verifiedClaims, result.selection);
  if (!portrait) return notFound('portrait');
  if (portraitDisclosure(disclosureFor({ presenter: (await preferences()).presenter, query })) === 'blurred') {
    // An image that does not decode is not shown at all while presenting.
    const blurred = await unrecognisable(Buffer.from(portrait.bytes));
    return blurred ? new Response(new Uint8Array(blurred), { headers: { ...PRIVATE_HEADERS, 'content-type': 'image/jpeg' } }) : notFound('portrait');
  }
  return new Response(new Uint8Array(portrait.bytes), { headers: { ...PRIVATE_HEADERS, 'content-type': portrait.contentType } });
}

/**
 * GET /result/trace: every exchange of the verification with its detail, as JSON, in the
 * reader's language; what it discloses as the page does (lib/view/disclosure.ts).
 */
export async function traceResponse(query: URLSearchParams): Promise<Response> {
  const { result, refusal } = await resultOrRefusal();
  if (refusal) return refusal;
  if (!result) return notFound('trace');
  const { presenter, locale } = await preferences();
  const disclosure = disclosureFor({ presenter, query });
  const presented = presentTrace(result.trace, { locale, certificate: result.signingCertificate });
  const trace = discloseTrace(presented, disclosure, { verifiedClaims: result.verifiedClaims, subject: result.idToken.claims.sub });
  return new Response(JSON.stringify(trace, null, 2), { headers: { ...PRIVATE_HEADERS, 'content-type': 'application/json; charset=utf-8' } });
}
