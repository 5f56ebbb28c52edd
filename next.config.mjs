/** @type {import('next').NextConfig} */
const securityHeaders = [
  // The callback URL carries the authorization code: never send a Referer to another site.
  // (Not `no-referrer`: with it, browsers send `Origin: null` on our own form posts, which the
  // same-origin check of POST /auth/start must then refuse.)
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  // HTTPS only, for two years (RFC 6797). Browsers heed it only over https, so on a loopback http
  // APP_URL it is inert. No includeSubDomains: the app does not own its parent domain's other hosts.
  { key: 'Strict-Transport-Security', value: 'max-age=63072000' },
];

const nextConfig = {
  reactStrictMode: true,
  // A self-contained server in .next/standalone (the Dockerfile ships it; scripts/start.mjs runs it).
  output: 'standalone',
  poweredByHeader: false,
  // `next dev` only: no indicator floating over the pages (it covers content on a phone); Next.js
  // still shows build and runtime errors.
  // https://nextjs.org/docs/app/api-reference/config/next-config-js/devIndicators
  devIndicators: false,
  // lib/emulator reads its portraits, stylesheets and script at run time; make sure they ship with the server build.
  outputFileTracingIncludes: { '/emulator/**': ['./lib/emulator/personas/portraits/*.jpg', './lib/emulator/views/assets/*'] },
  serverExternalPackages: ['@peculiar/x509', 'reflect-metadata'],
  async headers() {
    // The embedded emulator sends its own headers (a strict CSP per page); Next.js would replace them.
    // A policy for what proxy.ts gives none of its own: static files, and the not-found page of a
    // path that looks like one (/x.php), which runs no script without the nonce proxy.ts would give.
    return [
      { source: '/:path((?!emulator(?:/|$)).*)', headers: securityHeaders },
      {
        source: '/:path((?!emulator(?:/|$)).*)',
        headers: [{ key: 'Content-Security-Policy', value: "script-src 'none'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'" }],
      },
    ];
  },
  async rewrites() {
    // Next.js's route of its built-in error page, asked for by its name, renders it as a 500: it is
    // no page of ours, so it is not found.
    return { beforeFiles: [{ source: '/_global-error', destination: '/_not-found' }] };
  },
  async redirects() {
    // The failure page was /error until it was named apart from Next's error.tsx; links to it still work.
    return [{ source: '/error', destination: '/failure', permanent: true }];
  },
};

export default nextConfig;
