import type { VerificationView } from '@/lib/view/result-view';

/** "Identity verified", or a warning when the token holds no verified claims or another trust framework than requested. */
export function VerificationStatus({ verification, requestedTrustFramework }: { verification: VerificationView; requestedTrustFramework: string }) {
  if (verification.hasVerifiedClaims && verification.trustFrameworkMatches) {
    return (
      <p className="inline-flex items-center gap-2 rounded-full bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800">
        <span aria-hidden="true">✓</span> Identity verified
      </p>
    );
  }
  return (
    <p role="alert" className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-sm font-medium text-amber-900" data-testid="verification-warning">
      <span aria-hidden="true">!</span>
      {verification.hasVerifiedClaims
        ? `Verified under ${verification.trustFramework.state === 'value' ? verification.trustFramework.text : 'no stated trust framework'}, not the ${requestedTrustFramework} requested`
        : 'The token holds no verified claims'}
    </p>
  );
}
