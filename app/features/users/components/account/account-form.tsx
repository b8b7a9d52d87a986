/**
 * The pieces every section of the account page (docs/product.md#account-page) is made of: a
 * titled section, a form posting one `intent`, its submit button with a pending state, fields
 * showing the reply's errors, and the reply's message above the form.
 */
import type { ComponentProps, ReactNode } from "react";
import { Form } from "react-router";
import { usePendingIntent } from "#app/components/ui/confirm";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { FormMessage } from "#app/components/ui/form";
import type { FormReply } from "#app/lib/form-action.server";

/** The reply of this intent's form (and record, when `target` is given), if the last post was it. */
export function replyFor(reply: FormReply | null | undefined, intent: string, target?: string): FormReply | null {
  if (!reply || reply.intent !== intent) return null;
  if (target !== undefined && reply.target !== target) return null;
  return reply;
}

/** The reply's error messages for one field, if it refused. */
export function errorsOf(reply: FormReply | null, field: string): string[] | undefined {
  return reply && !reply.ok ? reply.fieldErrors?.[field] : undefined;
}

/** A required {@link InputField} whose error messages are the reply's errors for its `name`. */
export function ReplyField({
  reply,
  name,
  ...field
}: { reply: FormReply | null; name: string } & Omit<ComponentProps<typeof InputField>, "name" | "errors">) {
  return <InputField name={name} required errors={errorsOf(reply, name)} {...field} />;
}

/** A reply's message above its form: success in green, a refusal without field errors in red. */
export function ReplyMessage({ reply }: { reply: FormReply | null }) {
  if (!reply) return null;
  if (reply.ok) return <FormMessage success={reply.message} />;
  // Field errors are shown next to their fields.
  if (reply.fieldErrors && Object.keys(reply.fieldErrors).length) return null;
  return <FormMessage errors={[reply.message]} />;
}

/** One titled section of the page; `id` is its anchor (`/account/security#two-factor`). */
export function Section({ id, title, lead, children }: { id: string; title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 rounded-xl border border-slate-200 p-4 sm:p-6">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      {lead ? <p className="mt-1 text-sm text-slate-700">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A form posting `intent` to the page's action (works without JavaScript). */
export function IntentForm({
  intent,
  children,
  className = "flex flex-col gap-4",
}: {
  intent: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Form method="post" className={className} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/** The submit button of an {@link IntentForm}, showing `pendingLabel` while its post is in flight. */
export function Submit({ intent, children, pendingLabel }: { intent: string; children: ReactNode; pendingLabel: string }) {
  const pending = usePendingIntent(intent);
  return (
    <div>
      <SubmitButton pending={pending} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
    </div>
  );
}
