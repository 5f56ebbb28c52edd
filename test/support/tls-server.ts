/**
 * Real TLS servers with certificates made for the test (@peculiar/x509): self-signed, issued by a
 * CA of the test's own, expired, or for another host name. For the doctor's tests of what a
 * failed TLS connection is named. Each listens on 127.0.0.1 only.
 */
import 'reflect-metadata';
import { createServer } from 'node:https';
import { request } from 'node:https';
import { BasicConstraintsExtension, SubjectAlternativeNameExtension, X509CertificateGenerator, type X509Certificate } from '@peculiar/x509';
import type { FetchLike } from '@/lib/oidc';

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface Issued {
  /** PEM */
  certificate: string;
  /** PKCS #8 PEM */
  privateKey: string;
  keys: CryptoKeyPair;
  x509: X509Certificate;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${base64}-----END ${label}-----\n`;
}

export interface CertificateOptions {
  /** the subject's names: DNS names, or IP addresses */
  names?: { type: 'dns' | 'ip'; value: string }[];
  /** valid until, by default a year from now; in the past for an expired certificate */
  notAfter?: Date;
  /** the CA that issues it; self-signed without one */
  issuer?: Issued;
  ca?: boolean;
}

/** A certificate and its key: self-signed unless `issuer` is given. */
export async function issueCertificate({
  names = [{ type: 'ip', value: '127.0.0.1' }],
  notAfter,
  issuer,
  ca = false,
}: CertificateOptions = {}): Promise<Issued> {
  const keys = (await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const end = notAfter ?? new Date(Date.now() + 365 * DAY_MS);
  const validity = { notBefore: new Date(Math.min(Date.now() - DAY_MS, end.getTime() - 30 * DAY_MS)), notAfter: end };
  const extensions = [new BasicConstraintsExtension(ca, undefined, true), ...(ca ? [] : [new SubjectAlternativeNameExtension(names)])];
  const name = ca ? 'CN=Test CA' : `CN=${names[0]?.value ?? 'test'}`;
  const serialNumber = Buffer.from(crypto.getRandomValues(new Uint8Array(8)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  const x509 = issuer
    ? await X509CertificateGenerator.create({
        serialNumber,
        subject: name,
        issuer: issuer.x509.subject,
        ...validity,
        signingAlgorithm: EC_P256,
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        extensions,
      })
    : await X509CertificateGenerator.createSelfSigned({ serialNumber, name, ...validity, signingAlgorithm: EC_P256, keys, extensions });
  return { certificate: x509.toString('pem'), privateKey: pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey)), keys, x509 };
}

/** An https server with `issued` (and the chain after it) on 127.0.0.1 that answers `{}`; its port, and how to stop it. */
export async function startTlsServer(issued: Issued, chain: Issued[] = []): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer(
    { cert: [issued.certificate, ...chain.map((link) => link.certificate)].join(''), key: issued.privateKey },
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
  );
  // A client that refuses the certificate ends the handshake; that is the point, not an error here.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A fetch that trusts `ca` (PEM) besides nothing else, over node:https: the certificate's other
 * faults (expired, another host name) come out once the chain itself is trusted. Rejects with
 * Node's own error, as fetch keeps it in its cause.
 */
export function fetchTrusting(ca: string): FetchLike {
  return (input) =>
    new Promise((resolve, reject) => {
      const outgoing = request(String(input), { ca }, (incoming) => {
        incoming.resume();
        resolve(new Response(null, { status: incoming.statusCode ?? 500 }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
}
