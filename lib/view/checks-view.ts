/**
 * The ID token's checks as the trace and the failure page show them: each check's name, what it
 * expected and what it received (times also as UTC timestamps, with the clock tolerance that was
 * applied), its verdict, and the facts behind it (where the key came from, what `verified_claims`
 * dropped), in the reader's language (check-messages.ts). Made from a kept check
 * (lib/verification/trace.ts: its nonce already masked). Pure.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { IdTokenCheckName, KeySource } from '@/lib/oidc/checks';
import type { DroppedMember } from '@/lib/oidc/verified-claims';
import { isMaskedSecret, type RecordedCheck, type RecordedComparison } from '@/lib/verification/trace';
import { CHECK_MESSAGES, type CheckMessages } from './check-messages';
import { TRACE_MESSAGES } from './trace-messages';
import { describeSecret } from './secrets';

/** One check, worded. */
export interface CheckView {
  check: IdTokenCheckName;
  label: string;
  passed: boolean;
  /** the error code it failed with */
  code?: string;
  expected?: string;
  received?: string;
  /** the facts behind the verdict, in sentences */
  notes: string[];
  /** a failed check: the core's own sentence for it, in English as the core writes it */
  reason?: string;
  /** `verified_claims`' dropped members: path and reason */
  dropped?: { path: string; reason: string }[];
}

/** A number of seconds since the epoch as a UTC timestamp: `2026-11-24 10:14:03 UTC`. */
export function utc(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A value as it was compared: JSON (so `"a "` and `"a"` differ visibly), a masked secret worded. */
function shown(value: unknown, t: CheckMessages, locale: Locale): string {
  if (value === undefined) return t.absent;
  if (isMaskedSecret(value)) return describeSecret(value, TRACE_MESSAGES[locale]);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return TRACE_MESSAGES[locale].notDisplayable;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A numeric date with its timestamp: `1764000000 (2026-11-24 10:14:03 UTC)`. */
function time(value: unknown, t: CheckMessages, locale: Locale): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value} (${utc(value)})` : shown(value, t, locale);
}

function expectedOf(check: RecordedCheck, t: CheckMessages, locale: Locale): string | undefined {
  const detail = check.detail ?? {};
  const expected = check.expected;
  switch (check.check) {
    case 'jwe_header':
      return Array.isArray(expected) ? t.oneOf(expected.map(String).join(', ')) : undefined;
    case 'decryption':
      return text(expected) === undefined ? undefined : t.ourKey(text(expected)!);
    case 'jws_header':
      return text(expected) === undefined ? undefined : t.algAndKid(text(expected)!);
    case 'signing_key':
      return text(expected) === undefined ? undefined : t.keyWithKid(text(expected)!);
    case 'signature': {
      const { alg, kid } = (expected ?? {}) as { alg?: unknown; kid?: unknown };
      return typeof alg === 'string' && typeof kid === 'string' ? t.signatureBy(alg, kid) : undefined;
    }
    case 'payload':
      return t.jsonObject;
    case 'exp':
    case 'iat': {
      const [limit, now, tolerance] = [count(detail.limit), count(detail.now), count(detail.toleranceSeconds)];
      if (limit === undefined || now === undefined || tolerance === undefined) return undefined;
      return (check.check === 'exp' ? t.after : t.notAfter)(utc(limit), utc(now), tolerance);
    }
    case 'nonce':
      return expected === undefined ? undefined : t.nonceSent(shown(expected, t, locale));
    case 'sub':
      return t.nonEmptyText;
    case 'verified_claims':
      return undefined;
    default:
      return expected === undefined ? undefined : shown(expected, t, locale);
  }
}

function receivedOf(check: RecordedCheck, t: CheckMessages, locale: Locale): string | undefined {
  const parts = count(check.detail?.parts);
  switch (check.check) {
    case 'jwe_header':
      if (parts !== undefined && parts !== 5) return t.notEncrypted(parts) + (check.received === undefined ? '' : `: ${shown(check.received, t, locale)}`);
      return check.received === undefined ? undefined : shown(check.received, t, locale);
    case 'decryption':
      return t.encryptedTo(text(check.received));
    case 'jws_header':
      if (parts !== undefined && parts !== 3) return t.notJws(parts);
      return check.received === undefined ? undefined : shown(check.received, t, locale);
    case 'exp':
    case 'iat':
      return time(check.received, t, locale);
    case 'signing_key':
      return check.received === undefined ? (check.passed ? undefined : t.absent) : shown(check.received, t, locale);
    case 'signature':
    case 'payload':
    case 'verified_claims':
      return undefined;
    default:
      return shown(check.received, t, locale);
  }
}

function notesOf(check: RecordedCheck, t: CheckMessages): string[] {
  const detail = check.detail ?? {};
  const notes: string[] = [];
  if (check.check === 'signing_key') {
    const source = text(detail.source) as KeySource | undefined;
    if (source && source in t.keySources) notes.push(t.keySources[source]);
    if (Array.isArray(detail.published)) {
      const kids = detail.published.filter((kid): kid is string => typeof kid === 'string').map((kid) => `"${kid}"`);
      notes.push(kids.length === 0 ? t.publishedNone : t.published(kids.join(', ')));
    }
  }
  if (check.check === 'verified_claims') {
    const elements = count(detail.elements);
    if (elements !== undefined) notes.push(t.elementsRead(elements));
    const dropped = droppedOf(check, t);
    notes.push(dropped.length === 0 ? t.nothingDropped : t.dropped(dropped.length));
  }
  return notes;
}

function droppedOf(check: RecordedCheck, t: CheckMessages): { path: string; reason: string }[] {
  const dropped = check.detail?.dropped;
  if (!Array.isArray(dropped)) return [];
  return (dropped as Partial<DroppedMember>[])
    .filter((member) => typeof member?.path === 'string' && typeof member.reason === 'string')
    .map((member) => ({ path: member.path!, reason: t.reasons[member.reason!] ?? member.reason! }));
}

/** A kept check, worded in `locale`. */
export function presentCheck(check: RecordedCheck, locale: Locale): CheckView {
  const t = CHECK_MESSAGES[locale];
  const expected = expectedOf(check, t, locale);
  const received = receivedOf(check, t, locale);
  const dropped = check.check === 'verified_claims' ? droppedOf(check, t) : [];
  return {
    check: check.check,
    label: t.labels[check.check] ?? check.check,
    passed: check.passed,
    ...(check.code ? { code: check.code } : {}),
    ...(expected === undefined ? {} : { expected }),
    ...(received === undefined ? {} : { received }),
    notes: notesOf(check, t),
    // The core's own sentence for a failure, in English as the core writes it (lang="en" on the page).
    ...(!check.passed && text(check.detail?.reason) ? { reason: text(check.detail?.reason)! } : {}),
    ...(dropped.length > 0 ? { dropped } : {}),
  };
}

/** What a failure other than a check compared (lib/verification/trace.ts `recordComparison`), worded. */
export function presentComparison(comparison: RecordedComparison, locale: Locale): { claim?: string; expected?: string; received?: string } {
  const t = CHECK_MESSAGES[locale];
  return {
    ...(comparison.claim === undefined ? {} : { claim: comparison.claim }),
    ...(comparison.expected === undefined ? {} : { expected: shown(comparison.expected, t, locale) }),
    ...(comparison.received === undefined ? {} : { received: shown(comparison.received, t, locale) }),
  };
}
