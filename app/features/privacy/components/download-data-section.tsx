import { Form } from "react-router";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage } from "#app/components/ui/form";
import { Section } from "#app/features/users/components/account/account-form";

/**
 * "Download my data" (docs/product.md#download-my-data): a plain form post to the resource route
 * `POST /account/my-data`, so the browser itself saves the ZIP it answers (`Content-Disposition:
 * attachment`) with or without JavaScript — `reloadDocument` makes it the browser's own post, never a
 * fetch by React Router. A large
 * export is mailed as a link instead; the route then sends the browser back here with `notice` to say so.
 *
 * @param notice - what the last request said when it sent no file (queued, being prepared, over the limit).
 */
export function DownloadDataSection({ notice }: { notice: { ok: boolean; message: string } | null }) {
  return (
    <Section
      id="my-data"
      title="Your data"
      lead="One ZIP file with everything the portal holds about you: account, proposals, meetings, invoices, sessions and the activity recorded about you. A large file is prepared in the background and e-mailed to you as a link that works for 24 hours."
    >
      <Form method="post" action="/account/my-data" reloadDocument className="flex flex-col gap-4">
        {notice ? notice.ok ? <FormMessage success={notice.message} /> : <FormMessage errors={[notice.message]} /> : null}
        <div>
          <SubmitButton>Download my data</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
