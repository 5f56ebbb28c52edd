/**
 * The core's version, so that an integrator who copied version N knows what changed since:
 * CHANGELOG.md beside this file lists every version. Semantic versioning: a major version
 * changes an export's behaviour or signature, a minor one adds, a patch fixes.
 *
 * Copy with: nothing (no imports).
 */
export const CORE_VERSION = '1.12.0';
