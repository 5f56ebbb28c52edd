import type { Metadata } from 'next';
import { doctorReport } from '@/lib/server/doctor-cache';
import { preferences } from '@/lib/server/preferences';
import type { DoctorStatus } from '@/lib/verification/doctor-findings';
import { DOCTOR_MESSAGES } from '@/lib/view/doctor-messages';
import { Card } from '../_components/card';
import { CopyButton } from '../_components/copy-button';
import { OutcomeList } from '../_components/outcome-list';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: DOCTOR_MESSAGES[(await preferences()).locale].title };
}

const MARKS: Record<DoctorStatus, { mark: string; outcome: string }> = {
  pass: { mark: '✓', outcome: 'met' },
  warn: { mark: '!', outcome: 'warning' },
  fail: { mark: '✗', outcome: 'failed' },
};

/** GET /doctor: what `npm run doctor` prints (lib/server/doctor.ts), for QA pointing the app at staging, in the reader's language. */
export default async function DoctorPage() {
  const { locale } = await preferences();
  const t = DOCTOR_MESSAGES[locale];
  const report = await doctorReport(locale);
  const count = (status: DoctorStatus) => report.lines.filter((line) => line.status === status).length;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t.title}</h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          {t.intro[0]}
          <code className="font-mono text-sm">{t.command}</code>
          {t.intro[1]}
        </p>
      </div>
      <p
        className="verdict text-sm"
        data-verdict={report.status === 'pass' ? 'verified' : report.status === 'warn' ? 'verified_with_warnings' : 'not_verified'}
        data-testid="doctor-summary"
      >
        <strong>{t.passed(count('pass'))}</strong>
        {t.others(count('warn'), count('fail'))}
      </p>
      <Card title={t.checks} id="doctor-checks-heading">
        <OutcomeList
          testId="doctor"
          items={report.lines.map((line) => ({
            key: line.id,
            ...MARKS[line.status],
            spoken: t.statuses[line.status],
            label: line.title,
            detail: line.detail,
            data: { 'data-check': line.id, 'data-status': line.status },
            ...(line.fix ? { extra: `${t.whatToDo} ${line.fix}` } : {}),
          }))}
        />
      </Card>
      {report.environment && (
        <Card title={report.mode === 'provider' ? t.environment.titleProvider : t.environment.title} id="doctor-environment-heading">
          <p className="mt-2 max-w-3xl text-sm text-slate-700">{report.mode === 'provider' ? t.environment.introProvider : t.environment.intro}</p>
          <pre
            tabIndex={0}
            className="mt-3 max-h-96 overflow-auto rounded-md bg-code p-3 font-mono text-xs leading-relaxed text-code-ink"
            data-testid="doctor-environment"
          >
            {report.environment}
          </pre>
          <div className="mt-3">
            <CopyButton text={report.environment} label={t.environment.copy} copied={t.environment.copied} testId="copy-environment" />
          </div>
        </Card>
      )}
      {report.publicJwks.keys.length > 0 && (
        <Card title={t.publicJwks} id="doctor-jwks-heading">
          <pre
            tabIndex={0}
            className="mt-3 max-h-96 overflow-auto rounded-md bg-code p-3 font-mono text-xs leading-relaxed text-code-ink"
            data-testid="doctor-jwks"
          >
            {JSON.stringify(report.publicJwks, null, 2)}
          </pre>
        </Card>
      )}
    </div>
  );
}
