import 'server-only';
/** The picker's trust frameworks, read from the service's discovery document (cached by the core). */
import { TRUST_FRAMEWORKS } from '@/lib/oidc';
import { trustFrameworkChoices } from '@/lib/view/trust-frameworks';
import { services } from './services';

/**
 * The frameworks to offer; when discovery cannot be loaded, the spec's two and the reason, which
 * the picker shows (the verification itself will then fail with its own code).
 */
export async function offeredTrustFrameworks(): Promise<{ values: string[]; discoveryError?: string }> {
  const { relyingParty } = await services();
  try {
    return { values: trustFrameworkChoices(await relyingParty.discovery.get(relyingParty.issuer)) };
  } catch (error) {
    return { values: [...TRUST_FRAMEWORKS], discoveryError: (error as Error).message };
  }
}
