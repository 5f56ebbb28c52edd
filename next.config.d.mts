/** Types of next.config.mjs (Next.js reads it as plain JavaScript), for the tests that check its rules. */
import type { NextConfig } from 'next';

type Condition = { type: 'header' | 'query'; key: string; value?: string };
/** The headers rule that says `GET /` is gzipped (app/route.ts). */
export declare const homePageEncoding: { source: '/'; has: Condition[]; missing: Condition[]; headers: { key: string; value: string }[] };
declare const nextConfig: NextConfig & { headers: NonNullable<NextConfig['headers']> };
export default nextConfig;
