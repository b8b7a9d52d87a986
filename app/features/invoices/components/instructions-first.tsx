/**
 * #37: the warning shown where the admin would ask money (Generate invoice, the offer editor) while
 * card payments are off and Settings hold no payment instructions: what is refused, and the link to
 * Settings → Payments.
 */
import { Link } from "react-router";

/** @param what - what waits for the instructions, e.g. "sending an invoice". */
export function InstructionsFirst({ what }: { what: string }) {
  return (
    <div className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950" data-testid="instructions-first">
      <p className="font-medium">Add your payment instructions before {what}.</p>
      <p className="text-sm">
        Card payments are not set up, so the client pays by transfer: the invoice must say how (bank details, the reference to use).{" "}
        <Link to="/admin/settings/payments#payment-instructions" className="font-semibold underline">
          Add payment instructions in Settings
        </Link>
      </p>
    </div>
  );
}
