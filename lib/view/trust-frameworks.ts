/**
 * The trust frameworks the picker offers: those the service lists in discovery
 * (`trust_frameworks_supported`, OpenID Connect for Identity Assurance §8), or the spec's two
 * when it lists none. A listed value is shown only if it looks like a framework name, since it
 * comes from another party and ends up in a form field.
 */
import { TRUST_FRAMEWORKS } from '@/lib/oidc';

const FRAMEWORK_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The frameworks to offer, from a discovery document's metadata (anything but an array of names falls back). */
export function trustFrameworkChoices(metadata: { trust_frameworks_supported?: unknown }): string[] {
  const supported = metadata.trust_frameworks_supported;
  const listed = Array.isArray(supported) ? supported.filter((value): value is string => typeof value === 'string' && FRAMEWORK_NAME.test(value)) : [];
  return listed.length > 0 ? listed : [...TRUST_FRAMEWORKS];
}
