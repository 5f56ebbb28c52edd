/** GET /dynamic: an empty page rendered per request (Next.js's floor for a dynamic page). */
export const dynamic = 'force-dynamic';

export default function DynamicPage() {
  return null;
}
