/**
 * Accept and sign (docs/product.md#accept-and-sign): the client types their full name and ticks
 * "I have read and agree to these terms"; the button says what happens ("Accept version 3 and
 * sign"). A plain form post: it works without JavaScript.
 *
 * Every refusal shows at once (issue #41): the form is `noValidate`, so the browser does not stop at
 * its first bubble; the script checks both fields before posting, and without JavaScript the server
 * answers with every message. After a refusal the first refused field has the focus.
 */
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { FormMessage, getFormProps, getInputProps, TextInput, useAppForm } from "#app/components/ui/form";
import type { FormConstraints, FormResult } from "#app/lib/forms";
import { AGREEMENT_MESSAGES } from "../agreements.messages";

/**
 * @param version - the version shown (posted back with its hash: a stale one is refused).
 * @param constraint - `formConstraints(acceptFormSchema)`.
 * @param lastResult - the accept form's last reply.
 */
export function AcceptForm({
  version,
  sha256,
  constraint,
  lastResult,
}: {
  version: number;
  sha256: string;
  constraint: FormConstraints;
  lastResult?: FormResult | null;
}) {
  // The tick is required in the browser too (the schema's message), so that the script's check names
  // both fields at once.
  const [form, fields] = useAppForm<"typedName" | "agree">({
    id: "accept",
    constraint: {
      ...constraint,
      agree: {
        ...constraint.agree,
        required: true,
        messages: { ...constraint.agree?.messages, valueMissing: AGREEMENT_MESSAGES.agreeRequired },
      },
    },
    lastResult,
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "accept-offer";
  const checkbox = getInputProps(fields.agree, { type: "checkbox" });
  // The server's refusal: its first field is focused — by `autofocus` as the page loads (without
  // JavaScript too), and by the effect when the answer arrives on a hydrated page.
  const firstBad = lastResult?.error ? (["typedName", "agree"] as const).find((name) => lastResult.error?.[name]?.length) : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!lastResult?.error) return;
    formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [lastResult]);
  return (
    <Form
      method="post"
      ref={formRef}
      noValidate
      {...getFormProps(form)}
      className="mt-6 flex flex-col gap-4 rounded-lg border border-green-300 bg-green-50/40 p-4"
    >
      <h3 className="text-lg font-semibold">Accept and sign</h3>
      <p className="text-sm text-slate-700">
        Typing your full name and ticking the box is your electronic acceptance of version {version} exactly as shown above. We record your
        name, the time, your IP address and browser, and the SHA-256 of these terms, and send you a certificate.
      </p>
      <FormMessage id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="accept-offer" />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="sha256" value={sha256} />
      <TextInput field={fields.typedName} label="Your full name" autoComplete="name" autoFocus={firstBad === "typedName"} />
      <div className="flex flex-col gap-1">
        <div className="flex items-start gap-2">
          <input
            {...checkbox}
            autoFocus={firstBad === "agree"}
            className="mt-1 h-4 w-4"
            aria-invalid={fields.agree.errors?.length ? true : undefined}
            aria-describedby={fields.agree.errors?.length ? fields.agree.errorId : undefined}
          />
          <label htmlFor={fields.agree.id} className="font-medium text-slate-800">
            I have read and agree to these terms
          </label>
        </div>
        {fields.agree.errors?.length ? (
          <p id={fields.agree.errorId} className="text-sm text-red-700">
            {fields.agree.errors.join(" ")}
          </p>
        ) : null}
      </div>
      <div>
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending || undefined}
          className="rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-70"
        >
          {pending ? "Signing…" : `Accept version ${version} and sign`}
        </button>
      </div>
    </Form>
  );
}
