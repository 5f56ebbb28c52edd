/** GET /: an empty page, prerendered at build time (Next.js's floor for a static page). */
export default function StaticPage() {
  return null;
}
