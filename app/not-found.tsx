import { preferences } from '@/lib/server/preferences';
import { FAILURE_MESSAGES } from '@/lib/view/failure-explanations';

export default async function NotFound() {
  const t = FAILURE_MESSAGES[(await preferences()).locale].notFound;
  return (
    <div className="mx-auto max-w-xl space-y-4 text-center">
      <h1 className="text-2xl font-bold">{t.title}</h1>
      <p className="text-slate-700">{t.sentence}</p>
      <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">
        {t.home}
      </a>
    </div>
  );
}
