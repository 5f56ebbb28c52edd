/**
 * A relying party in Express built on panva's openid-client v6 instead of this project's core:
 * service-client.ts beside this file adapts openid-client to the service (README.md says what
 * each adaptation is and why). The session is express-session's; its default store is this
 * process's memory, so use a shared one for more than one instance.
 *
 *   POST /login     PAR with a signed request object; the pending authorization (state, nonce,
 *                   PKCE verifier) into the session; 303 to the service
 *   GET  /callback  the pending authorization out of the session (used once, whatever happens);
 *                   code exchange, the encrypted ID token decrypted and checked; the verified
 *                   given name, and the portrait when it is a base64 JPEG data URI
 *
 * Whatever fails, at PAR or at the callback, ends on a refusal page (400) that shows only an
 * error code, never a claim; a service that does not answer within 10 s is refused as
 * OAUTH_TIMEOUT (service-client.ts).
 *
 *   IDV_BASE_URL=… IDV_CLIENT_ID=… IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' \
 *   SESSION_SECRET=… PORT=8000 node server.js      (redirect URI http://127.0.0.1:8000/callback)
 */
import express from 'express';
import session from 'express-session';
import { AuthorizationResponseError, ClientError, ResponseBodyError, WWWAuthenticateChallengeError } from 'openid-client';
import { ServiceResponseRefused, completeAuthorization, connectToService, startAuthorization, type PendingAuthorization } from './service-client.ts';

declare module 'express-session' {
  interface SessionData {
    openidClientPending?: PendingAuthorization;
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the comment at the top of this file)`);
  return value;
}

const port = Number(process.env.PORT ?? 8000);
const issuer = required('IDV_BASE_URL');
const redirectUri = `http://127.0.0.1:${port}/callback`;
const service = await connectToService({
  issuer,
  clientId: required('IDV_CLIENT_ID'),
  redirectUri,
  signingKey: JSON.parse(required('IDV_SIGNING_KEY')),
  encryptionKey: JSON.parse(required('IDV_ENCRYPTION_KEY')),
  // Plain http only for an emulator on this machine (localhost, 127.0.0.0/8, [::1]).
  allowInsecureRequests: /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(issuer).hostname),
});

/** Interface spec 2.3: the standard trust framework, and only the claims this page shows. */
const claimsRequest = {
  id_token: {
    verified_claims: {
      verification: { trust_framework: { value: 'standard' } },
      claims: { given_name: { essential: true }, picture: { essential: false } },
    },
  },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Example relying party (openid-client)</title>${body}</html>`;

/**
 * Interface spec 2.3: `picture` is `data:image/jpeg;base64,<data>`, and only that is rendered. A
 * remote URL is never put in an <img>: the browser would fetch it, letting the service, or
 * whoever forged the token, track this user's browser or serve it anything.
 */
const JPEG_DATA_URI = /^data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}$/;
const portrait = (picture: unknown) =>
  typeof picture === 'string' && JPEG_DATA_URI.test(picture)
    ? `<img data-testid="portrait" alt="Portrait from the identity document" src="${escape(picture)}">`
    : '';

/** A stable code for the refusal page: ours, the service's `error`, or openid-client's `code`. */
function errorCode(error: unknown): string {
  if (error instanceof ServiceResponseRefused) return error.code;
  if (error instanceof AuthorizationResponseError || error instanceof ResponseBodyError) return error.error;
  if (error instanceof ClientError || error instanceof WWWAuthenticateChallengeError) return error.code ?? 'client_error';
  // Not one of openid-client's (a TypeError from fetch, say): logged here, refused all the same.
  console.error(error);
  return 'unexpected_error';
}

/** The refusal page: the error code only, never a claim of a refused token. */
function refuse(response: express.Response, error: unknown): void {
  const code = errorCode(error);
  const why = code === 'OAUTH_TIMEOUT' ? 'The identity service did not answer in time, so the verification was stopped.' : 'The verification was refused.';
  response.status(400).send(page(`<h1>Not verified</h1><p>${why}</p><p>Error <code data-testid="error-code">${escape(code)}</code></p>`));
}

const app = express();
app.use(session({ secret: required('SESSION_SECRET'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));
// A second wall behind `portrait`: these pages load nothing but data: images.
app.use((_request, response, next) => {
  response.set('Content-Security-Policy', "default-src 'none'; img-src data:");
  next();
});

app.get('/', (_request, response) => {
  response.send(page('<h1>Example relying party (openid-client)</h1><form method="post" action="/login"><button>Verify my identity</button></form>'));
});

app.post('/login', async (request, response) => {
  try {
    const { authorizationUrl, pending } = await startAuthorization(service, claimsRequest);
    request.session.openidClientPending = pending;
    response.redirect(303, authorizationUrl.href);
  } catch (error) {
    // PAR refused (spec 7), or the service unreachable: nobody goes to the service.
    refuse(response, error);
  }
});

app.get('/callback', async (request, response) => {
  const pending = request.session.openidClientPending;
  delete request.session.openidClientPending;
  if (!pending) {
    response.status(400).send(page('<h1>Not verified</h1><p>Error <code data-testid="error-code">no_pending_authorization</code></p>'));
    return;
  }
  try {
    // openid-client compares this URL without its query to the redirect URI it sent (RFC 6749 §4.1.3).
    const { verified_claims } = await completeAuthorization(service, new URL(request.originalUrl, redirectUri), pending);
    const claims = (verified_claims as { claims?: { given_name?: unknown; picture?: unknown } } | undefined)?.claims;
    const givenName = typeof claims?.given_name === 'string' ? claims.given_name : '';
    response.send(page(`<h1>Verified</h1><p>Given name: <span data-testid="given-name">${escape(givenName)}</span></p>${portrait(claims?.picture)}`));
  } catch (error) {
    refuse(response, error);
  }
});

app.listen(port, '127.0.0.1', () => console.log(`example relying party (openid-client) on http://127.0.0.1:${port}`));
