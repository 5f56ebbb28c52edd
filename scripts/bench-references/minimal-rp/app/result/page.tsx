import { cookies } from 'next/headers';
import { BROWSER_COOKIE, openBinding, relyingParty } from '../../lib/relying-party.ts';

export const dynamic = 'force-dynamic';

/** GET /result: who this browser's last verification verified, with the portrait. */
export default async function ResultPage() {
  const browser = openBinding((await cookies()).get(BROWSER_COOKIE)?.value);
  const claims = browser === undefined ? undefined : relyingParty().results.get(browser)?.[0]?.claims;
  if (!claims) return <main>No verified identity</main>;
  return (
    <main>
      <h1>Verified: {claims.name ?? [claims.given_name, claims.family_name].filter(Boolean).join(' ')}</h1>
      {claims.birthdate ? <p>Born {claims.birthdate}</p> : null}
      {/* eslint-disable-next-line @next/next/no-img-element -- the portrait is private, per browser: never through the image optimiser */}
      {claims.picture ? <img src="/result/portrait" alt="Portrait from the identity document" /> : null}
      <form method="post" action="/auth/signout">
        <button>Sign out</button>
      </form>
    </main>
  );
}
