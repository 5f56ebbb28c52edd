/**
 * A reference of `npm run bench:http` (scripts/bench-http.ts), built by it in a temporary folder
 * whose node_modules is a symlink to the repository's: the very same Next.js and React. Turbopack
 * compiles nothing outside its root and refuses a node_modules that points out of it, so its root,
 * and the standalone output's tracing root with it, is the nearest folder that holds both this
 * folder and the real node_modules; the bench passes it as BENCH_REFERENCE_ROOT. The standalone
 * server.js then sits at .next/standalone/<this folder's path from that root>.
 */
const root = process.env.BENCH_REFERENCE_ROOT;
if (!root) throw new Error('BENCH_REFERENCE_ROOT is unset: this reference is built by scripts/bench-http.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  outputFileTracingRoot: root,
  turbopack: { root },
};

export default nextConfig;
