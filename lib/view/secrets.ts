/** A masked secret as the trace and the checks word it. Pure. */
import type { MaskedSecret } from '@/lib/verification/trace';
import { TRACE_MESSAGES, type TraceMessages } from './trace-messages';

/** A masked secret in words: its first characters and its length, never enough to use it. */
export function describeSecret({ masked, length }: MaskedSecret, messages: TraceMessages = TRACE_MESSAGES.en): string {
  return masked === '' ? '•'.repeat(length) : `${masked}…${'•'.repeat(4)} (${messages.characters(length)})`;
}
