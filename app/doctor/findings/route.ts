import { doctorFindings } from '@/lib/server/doctor-cache';

/**
 * GET /doctor/findings: the doctor's findings for this app as it runs, as data (codes with values,
 * lib/verification/doctor-findings.ts), which `npm run doctor` asks for and prints. The very set
 * GET /doctor shows, reused for 15 s (2 s while the service cannot be reached), so no request
 * makes the app ask the service more often than the page does. Nothing secret: public keys, and
 * placeholders for the private keys and the session secret.
 */
export async function GET(): Promise<Response> {
  return Response.json(await doctorFindings(), { headers: { 'cache-control': 'no-store' } });
}
