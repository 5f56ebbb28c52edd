/**
 * `npm run doctor`: checks the configuration, then fetches the service's discovery document and
 * JWKS and checks them against what the spec and this client need (lib/server/doctor.ts), one
 * line each with what to do, and prints our public JWKS to register. Reads the same environment
 * variables as `npm start`. Exit status 1 when a line fails.
 * Against the embedded emulator (no IDV_BASE_URL) every line passes.
 */
import { doctorReport, type DoctorStatus } from '../lib/server/doctor';

const MARKS: Record<DoctorStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' };

const report = await doctorReport();
for (const { status, title, detail, fix } of report.lines) {
  console.log(`${MARKS[status]}  ${title}: ${detail}`);
  if (fix) console.log(`      → ${fix}`);
}
const counts = (status: DoctorStatus) => report.lines.filter((line) => line.status === status).length;
console.log(`\n${counts('pass')} passed, ${counts('warn')} with a warning, ${counts('fail')} failed.`);
if (report.publicJwks.keys.length > 0) {
  console.log('\nOur public JWKS, to register with the service (public keys only):');
  console.log(JSON.stringify(report.publicJwks, null, 2));
}
process.exit(report.status === 'fail' ? 1 : 0);
