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
 *                   given name
 *
 *   IDV_BASE_URL=… IDV_CLIENT_ID=… IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' \
 *   SESSION_SECRET=… PORT=8000 node server.js      (redirect URI http://127.0.0.1:8000/callback)
 */
import express from 'express';
import session from 'express-session';
import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';
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

/** Interface spec 2.3: the standard trust framework, and only the claim this page shows. */
const claimsRequest = {
  id_token: {
    verified_claims: {
      verification: { trust_framework: { value: 'standard' } },
      claims: { given_name: { essential: true } },
    },
  },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Example relying party (openid-client)</title>${body}</html>`;

/** A stable code for the failure page: ours, the service's `error`, or openid-client's `code`. */
function errorCode(error: unknown): string | undefined {
  if (error instanceof ServiceResponseRefused) return error.code;
  if (error instanceof AuthorizationResponseError || error instanceof ResponseBodyError) return error.error;
  if (error instanceof ClientError) return error.code;
  return undefined;
}

const app = express();
app.use(session({ secret: required('SESSION_SECRET'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));

app.get('/', (_request, response) => {
  response.send(page('<h1>Example relying party (openid-client)</h1><form method="post" action="/login"><button>Verify my identity</button></form>'));
});

app.post('/login', async (request, response, next) => {
  try {
    const { authorizationUrl, pending } = await startAuthorization(service, claimsRequest);
    request.session.openidClientPending = pending;
    response.redirect(303, authorizationUrl.href);
  } catch (error) {
    next(error);
  }
});

app.get('/callback', async (request, response, next) => {
  const pending = request.session.openidClientPending;
  delete request.session.openidClientPending;
  try {
    if (!pending) {
      response.status(400).send(page('<h1>Not verified</h1><p>Error <code data-testid="error-code">no_pending_authorization</code></p>'));
      return;
    }
    // openid-client compares this URL without its query to the redirect URI it sent (RFC 6749 §4.1.3).
    const { verified_claims } = await completeAuthorization(service, new URL(request.originalUrl, redirectUri), pending);
    const givenName = (verified_claims as { claims?: { given_name?: unknown } } | undefined)?.claims?.given_name;
    response.send(page(`<h1>Verified</h1><p>Given name: <span data-testid="given-name">${escape(String(givenName))}</span></p>`));
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined) return next(error);
    response.status(400).send(page(`<h1>Not verified</h1><p>Error <code data-testid="error-code">${escape(code)}</code></p>`));
  }
});

app.listen(port, '127.0.0.1', () => console.log(`example relying party (openid-client) on http://127.0.0.1:${port}`));
