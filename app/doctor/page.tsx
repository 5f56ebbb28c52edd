import type { Metadata } from 'next';
import { doctorReport, type DoctorStatus } from '@/lib/server/doctor';
import { Card } from '../_components/card';
import { OutcomeList } from '../_components/outcome-list';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Doctor' };

const MARKS: Record<DoctorStatus, { mark: string; spoken: string; outcome: string }> = {
  pass: { mark: '✓', spoken: 'Pass', outcome: 'met' },
  warn: { mark: '!', spoken: 'Warning', outcome: 'warning' },
  fail: { mark: '✗', spoken: 'Fail', outcome: 'failed' },
};

/** GET /doctor: what `npm run doctor` prints (lib/server/doctor.ts), for QA pointing the app at staging. */
export default async function DoctorPage() {
  const report = await doctorReport();
  const count = (status: DoctorStatus) => report.lines.filter((line) => line.status === status).length;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Doctor</h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          The configuration, the service’s discovery document and its key set, checked against what the interface specification and this client
          need. <code className="font-mono text-sm">npm run doctor</code> prints the same. A report is at most 15 seconds old.
        </p>
      </div>
      <p className="verdict text-sm" data-verdict={report.status === 'pass' ? 'verified' : report.status === 'warn' ? 'verified_with_warnings' : 'not_verified'} data-testid="doctor-summary">
        <strong>{count('pass')} passed</strong>, {count('warn')} with a warning, {count('fail')} failed.
      </p>
      <Card title="Checks" id="doctor-checks-heading">
        <OutcomeList
          testId="doctor"
          items={report.lines.map((line) => ({
            key: line.id,
            ...MARKS[line.status],
            label: line.title,
            detail: line.detail,
            data: { 'data-check': line.id, 'data-status': line.status },
            ...(line.fix ? { extra: `What to do: ${line.fix}` } : {}),
          }))}
        />
      </Card>
      {report.publicJwks.keys.length > 0 && (
        <Card title="Our public JWKS, to register with the service" id="doctor-jwks-heading">
          <pre tabIndex={0} className="mt-3 max-h-96 overflow-auto rounded-md bg-code p-3 font-mono text-xs leading-relaxed text-code-ink" data-testid="doctor-jwks">
            {JSON.stringify(report.publicJwks, null, 2)}
          </pre>
        </Card>
      )}
    </div>
  );
}
