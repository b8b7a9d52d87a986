import { Form } from "react-router";
import { SubmitButton } from "#app/components/ui/field";
import { usePendingIntent } from "#app/components/ui/confirm";
import { ReplyMessage, Section } from "#app/features/users/components/account/account-form";
import type { FormReply } from "#app/lib/form-action.server";

/**
 * "Download my data" (docs/product.md#download-my-data): a plain form post, so the browser saves the
 * ZIP it answers; a large export is mailed as a link instead, and the page says so.
 */
export function DownloadDataSection({ reply }: { reply: FormReply | null }) {
  const pending = usePendingIntent("download-data");
  return (
    <Section
      id="my-data"
      title="Your data"
      lead="One ZIP file with everything the portal holds about you: account, proposals, meetings, invoices, sessions and the activity recorded about you. A large file is prepared in the background and e-mailed to you as a link that works for 24 hours."
    >
      <Form method="post" reloadDocument className="flex flex-col gap-4">
        <ReplyMessage reply={reply} />
        <input type="hidden" name="intent" value="download-data" />
        <div>
          <SubmitButton pending={pending} pendingLabel="Preparing…">
            Download my data
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
