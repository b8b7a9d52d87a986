/**
 * The reminder shown on every portal page while the signed-in user's e-mail address is not
 * verified (docs/product.md#email-verification). "Resend link" is a plain form post to
 * /verify-email, so it works without JavaScript; the server throttles it.
 */
import { Form } from "react-router";

/**
 * The banner; renders nothing once the address is verified.
 *
 * @param forClient - clients are told that proposals addressed to them stay hidden until then.
 */
export function VerifyEmailBanner({ email, verified, forClient }: { email: string; verified: boolean; forClient: boolean }) {
  if (verified) return null;
  return (
    <section
      aria-label="E-mail verification"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <p>
        <strong>Verify your e-mail address.</strong> We sent a link to <span className="break-all font-medium">{email}</span>.{" "}
        {forClient
          ? "Until you open it, proposals addressed to you by e-mail stay hidden."
          : "Please open it to confirm the address is yours."}
      </p>
      <Form method="post" action="/verify-email" className="shrink-0">
        <input type="hidden" name="intent" value="resend" />
        <button type="submit" className="rounded-md border border-amber-400 bg-white px-3 py-2 font-medium hover:bg-amber-100">
          Resend link
        </button>
      </Form>
    </section>
  );
}
