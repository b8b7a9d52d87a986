import { LocalDateTime } from "#app/components/local-time";

/**
 * The client's standing acceptance under the terms (docs/product.md#accept-and-sign), on the
 * proposal page and the signing page: who accepted which version when, and the certificate's link.
 *
 * @param proposalId - the proposal, for the certificate's URL.
 * @param acceptance - the standing acceptance (dates may arrive as strings).
 */
export function AcceptanceNotice({
  proposalId,
  acceptance,
}: {
  proposalId: number;
  acceptance: { versionNumber: number; typedName: string; acceptedAt: Date | string; certificateId: string };
}) {
  return (
    <p className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900" data-testid="offer-acceptance">
      You accepted version {acceptance.versionNumber} as {acceptance.typedName} on <LocalDateTime value={acceptance.acceptedAt} />.{" "}
      <a className="font-medium underline" href={`/proposals/${proposalId}/certificate/${acceptance.certificateId}`} download>
        Download the certificate of acceptance (PDF)
      </a>
    </p>
  );
}
