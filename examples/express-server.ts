/**
 * A relying party in Express: the two routes around the browser redirect, with the core (lib/oidc,
 * copied as it is) and a session (express-session; its default store is this process's memory,
 * so use a shared one for more than one instance).
 *
 *   POST /login     PAR; the pending authorization (state, nonce, PKCE verifier) into the session;
 *                   303 to the service
 *   GET  /callback  the pending authorization out of the session (used once, whatever happens);
 *                   code exchange, ID token checks; who was verified
 *
 *   IDV_BASE_URL=… IDV_CLIENT_ID=… IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' \
 *   SESSION_SECRET=… PORT=8000 node express-server.js      (redirect URI http://127.0.0.1:8000/callback)
 */
import express from 'express';
import session from 'express-session';
import { DiscoveryCache, JwksCache, completeAuthorization, isIdvError, startAuthorization, type PendingAuthorization, type RelyingParty } from '../lib/oidc/index.ts';

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
  discovery: new DiscoveryCache(http),
  jwks: new JwksCache(http),
  http,
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Example relying party</title>${body}</html>`;

const app = express();
app.use(session({ secret: required('SESSION_SECRET'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));

app.get('/', (_request, response) => {
  response.send(page('<h1>Example relying party</h1><form method="post" action="/login"><button>Verify my identity</button></form>'));
});

app.post('/login', async (request, response, next) => {
  try {
    const { authorizationUrl, pending } = await startAuthorization(rp, {
      trustFramework: 'standard',
      claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true } },
    });
    request.session.pending = pending;
    response.redirect(303, authorizationUrl);
  } catch (error) {
    next(error);
  }
});

app.get('/callback', async (request, response, next) => {
  const pending = request.session.pending;
  delete request.session.pending;
  try {
    const parameters = new URL(request.originalUrl, 'http://callback').searchParams;
    const { verifiedClaims } = await completeAuthorization(rp, parameters, pending);
    const { given_name, family_name, birthdate } = verifiedClaims[0]?.claims ?? {};
    response.send(page(`<h1>Verified: ${escape(`${given_name} ${family_name}`)}</h1><p>Born ${escape(String(birthdate))}</p>`));
  } catch (error) {
    if (!isIdvError(error)) return next(error);
    response.status(400).send(page(`<h1>Not verified</h1><p>Error <code data-testid="error-code">${escape(error.code)}</code></p>`));
  }
});

app.listen(port, '127.0.0.1', () => console.log(`example relying party on http://127.0.0.1:${port}`));
