/**
 * A relying party in Express: the two routes around the browser redirect, with the core (lib/oidc,
 * copied as it is) and a session (express-session; its default store is this process's memory,
 * so use a shared one for more than one instance).
 *
 *   POST /login     PAR; the pending authorization (state, nonce, PKCE verifier) into the session;
 *                   303 to the service
 *   GET  /callback  the pending authorization out of the session (used once, whatever happens);
 *                   code exchange, ID token checks; who was verified: the given name, and the
 *                   portrait when it is a base64 JPEG data URI
 *
 * Whatever fails, at PAR or at the callback, ends on a refusal page (400) that shows only an
 * error code, never a claim; a service that does not answer within the core's 10 s
 * (DEFAULT_TIMEOUT_MS) is refused as `timeout`.
 *
 *   IDV_BASE_URL=… IDV_CLIENT_ID=… IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' \
 *   SESSION_SECRET=… PORT=8000 node express-server.js      (redirect URI http://127.0.0.1:8000/callback)
 */
import express from 'express';
import session from 'express-session';
import {
  DiscoveryCache,
  JwksCache,
  completeAuthorization,
  isIdvError,
  startAuthorization,
  type PendingAuthorization,
  type RelyingParty,
} from '../lib/oidc/index.ts';

declare module 'express-session' {
  interface SessionData {
    pending?: PendingAuthorization;
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the comment at the top of this file)`);
  return value;
}

const port = Number(process.env.PORT ?? 8000);
const issuer = required('IDV_BASE_URL');
// Plain http only for an emulator on this machine (localhost, 127.0.0.0/8, [::1]).
const http = { allowInsecureRequests: /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(issuer).hostname) };
const rp: RelyingParty = {
  issuer,
  client: {
    clientId: required('IDV_CLIENT_ID'),
    redirectUri: `http://127.0.0.1:${port}/callback`,
    signingKey: JSON.parse(required('IDV_SIGNING_KEY')),
    encryptionKey: JSON.parse(required('IDV_ENCRYPTION_KEY')),
  },
  // `http` reaches the caches' requests too: allowInsecureRequests is set in one place.
  discovery: new DiscoveryCache(),
  jwks: new JwksCache(),
  http,
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Example relying party</title>${body}</html>`;

/**
 * Interface spec 2.3: `picture` is `data:image/jpeg;base64,<data>`. Only that is rendered (the
 * core has already dropped anything that is not a base64 image data URI). A remote URL is never
 * put in an <img>: the browser would fetch it, letting the service, or whoever forged the token,
 * track this user's browser or serve it anything.
 */
const portrait = (picture: string | undefined) =>
  picture?.startsWith('data:image/jpeg;base64,') ? `<img data-testid="portrait" alt="Portrait from the identity document" src="${escape(picture)}">` : '';

/** The refusal page: the error code only, never a claim of a refused token. */
function refusal(code: string): string {
  const why = code === 'timeout' ? 'The identity service did not answer in time, so the verification was stopped.' : 'The verification was refused.';
  return page(`<h1>Not verified</h1><p>${why}</p><p>Error <code data-testid="error-code">${escape(code)}</code></p>`);
}

/** Any failure, as a refusal: the core's code; anything else is logged here and shown as `unexpected_error`. */
function refuse(response: express.Response, error: unknown): void {
  if (!isIdvError(error)) console.error(error);
  response.status(400).send(refusal(isIdvError(error) ? error.code : 'unexpected_error'));
}

const app = express();
app.use(session({ secret: required('SESSION_SECRET'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));
// A second wall behind `portrait`: these pages load nothing but data: images.
app.use((_request, response, next) => {
  response.set('Content-Security-Policy', "default-src 'none'; img-src data:");
  next();
});

app.get('/', (_request, response) => {
  response.send(page('<h1>Example relying party</h1><form method="post" action="/login"><button>Verify my identity</button></form>'));
});

app.post('/login', async (request, response) => {
  try {
    const { authorizationUrl, pending } = await startAuthorization(rp, {
      trustFramework: 'standard',
      claims: {
        given_name: { essential: true },
        family_name: { essential: true },
        birthdate: { essential: true },
        // Interface spec 2.3: the document's portrait, shown when the service sends it.
        picture: { essential: false },
      },
    });
    request.session.pending = pending;
    response.redirect(303, authorizationUrl);
  } catch (error) {
    // PAR refused (spec 7), or the service unreachable: nobody goes to the service.
    refuse(response, error);
  }
});

app.get('/callback', async (request, response) => {
  const pending = request.session.pending;
  delete request.session.pending;
  try {
    const parameters = new URL(request.originalUrl, 'http://callback').searchParams;
    const { verifiedClaims } = await completeAuthorization(rp, parameters, pending);
    // Only the claims the service sent (spec 1: unavailable ones are left out).
    const { given_name, family_name, birthdate, picture } = verifiedClaims[0]?.claims ?? {};
    const name = [given_name, family_name].filter(Boolean).join(' ');
    response.send(
      page(
        `<h1>Verified: ${escape(name)}</h1><p>Given name: <span data-testid="given-name">${escape(given_name ?? '')}</span></p>` +
          portrait(picture) +
          (birthdate ? `<p>Born ${escape(birthdate)}</p>` : ''),
      ),
    );
  } catch (error) {
    refuse(response, error);
  }
});

app.listen(port, '127.0.0.1', () => console.log(`example relying party on http://127.0.0.1:${port}`));
