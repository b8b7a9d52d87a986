import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/contact";
import type { loader as rootLoader, RouteHandle } from "#app/root";
import { SubmitButton } from "#app/components/ui/field";
import { getFormProps, TextArea, TextInput, useAppForm } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { requestInfoContext } from "#app/lib/request-info";
import { owner } from "#app/content/site";
import { contactSchema } from "#app/features/contact/contact.schema";
import { CONTACT_MESSAGES, HONEYPOT_FIELD } from "#app/features/contact/contact.messages";
import { submitContactMessage } from "#app/features/contact/contact.server";
import { invalidInput } from "#app/lib/errors";
import { formAction, retryAfterHeaders } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { pageMeta } from "#app/lib/meta";
import { newSubmissionKey, parseSubmissionKey } from "#app/features/submissions/submission-key.server";
import { SUBMISSION_KEY_FIELD } from "#app/features/submissions/submission-key";

/**
 * No JavaScript bundle on this page (ADR 002): the form is a plain HTML form validated by the
 * browser's constraints and, with messages next to the fields, by the server. 171 KB of
 * hydration code cost the page its Lighthouse performance score (96 → 100).
 */
export const handle: RouteHandle = { hydrate: false };

/**
 * The one script of the page (inline, allowed by the CSP nonce): the Send button shows
 * "Sending…" and cannot be pressed twice while the post is under way; it is restored when the
 * page comes back from the back/forward cache.
 */
const PENDING_SCRIPT = `(()=>{const f=document.getElementById("contact");if(!f)return;const b=f.querySelector("button[type=submit]"),t=b.textContent;
f.addEventListener("submit",()=>{b.disabled=true;b.setAttribute("aria-busy","true");b.textContent="Sending…"});
addEventListener("pageshow",(e)=>{if(e.persisted){b.disabled=false;b.removeAttribute("aria-busy");b.textContent=t}})})()`;

/** A rate-limited post's 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Get In Touch",
    description: `Contact ${owner.name} about a project: e-mail, phone, or the message form.`,
  });

/** The form's checks (the browser's own: the page runs no script). */
export function loader() {
  // Issue #36: the form's idempotency key, new for every rendering.
  return { form: formConstraints(contactSchema), submissionKey: newSubmissionKey() };
}

/**
 * Contact form action (docs/product.md#contact): validates on the server, refuses
 * honeypot and rate-limited posts, stores the message and queues the owner's e-mail.
 */
export async function action(args: Route.ActionArgs) {
  const { db, env } = args.context.get(servicesContext);
  const { ip } = args.context.get(requestInfoContext);
  return formAction(
    args,
    contactSchema,
    async (value, form) => {
      if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") throw invalidInput(CONTACT_MESSAGES.failure);
      await submitContactMessage(db, value, {
        ownerEmail: env.OWNER_EMAIL ?? owner.email,
        ip,
        submissionKey: parseSubmissionKey(form.get(SUBMISSION_KEY_FIELD)),
      });
      return CONTACT_MESSAGES.success;
    },
    { failureMessage: CONTACT_MESSAGES.failure },
  );
}

/** The form's fields in page order: the first one the server refused gets the focus. */
const CONTACT_FIELDS = ["user_name", "user_email", "user_phone", "message"] as const;

/** Get In Touch (docs/product.md#contact): e-mail and phone links, message form, GitHub and LinkedIn. */
export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const nonce = useRouteLoaderData<typeof rootLoader>("root")?.nonce;
  // Never hydrated: the browser checks the constraints itself, in its own words.
  const [form, fields] = useAppForm({ id: "contact", constraint: loaderData.form, lastResult: actionData?.result });
  const succeeded = actionData?.ok === true && !form.dirty;
  // After a post, the answer is where the user looks (issue #41): on a phone the page came back at its
  // top. The HTML `autofocus` attribute focuses and scrolls to it as the page loads — with or without
  // JavaScript (the page is never hydrated): the success message, the first field the server refused,
  // or the form's message (a failure, too many messages).
  const firstBad = actionData?.ok === false ? CONTACT_FIELDS.find((name) => fields[name].errors?.length) : undefined;
  const focusResult = actionData !== undefined && (succeeded || (actionData.ok === false && firstBad === undefined));

  return (
    <section className="mx-auto grid max-w-6xl gap-12 px-4 py-16 lg:grid-cols-[1fr_1.4fr]">
      <div className="reveal">
        <h1 className="text-4xl font-bold tracking-tight">Get In Touch</h1>
        <p className="mt-4 text-lg text-slate-700">Have a project in mind or a question? Send a message, or reach me directly.</p>
        <ul className="mt-6 space-y-3 text-slate-800">
          <li>
            <span className="font-semibold">Email: </span>
            <a className="text-brand-700 underline underline-offset-4" href={`mailto:${owner.email}`}>
              {owner.email}
            </a>
          </li>
          <li>
            <span className="font-semibold">Phone: </span>
            <a className="text-brand-700 underline underline-offset-4" href={`tel:${owner.phone.e164}`}>
              {owner.phone.display}
            </a>
          </li>
        </ul>
        <ul className="mt-6 flex gap-4">
          <li>
            <a
              className="font-semibold text-brand-700 underline underline-offset-4"
              href={owner.github}
              target="_blank"
              rel="noopener noreferrer"
            >
              GitHub
            </a>
          </li>
          <li>
            <a
              className="font-semibold text-brand-700 underline underline-offset-4"
              href={owner.linkedin}
              target="_blank"
              rel="noopener noreferrer"
            >
              LinkedIn
            </a>
          </li>
        </ul>
      </div>

      <div className="reveal rounded-xl border border-slate-200 p-6 shadow-sm">
        <h2 className="text-2xl font-semibold">Send a message</h2>
        <form method="post" action="/contact" {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
          <input type="hidden" name={SUBMISSION_KEY_FIELD} value={loaderData.submissionKey} />
          <TextInput field={fields.user_name} label="Name" autoComplete="name" autoFocus={firstBad === "user_name"} />
          <TextInput field={fields.user_email} label="Email" type="email" autoComplete="email" autoFocus={firstBad === "user_email"} />
          <TextInput
            field={fields.user_phone}
            label="Phone (optional)"
            type="tel"
            autoComplete="tel"
            autoFocus={firstBad === "user_phone"}
          />
          <TextArea field={fields.message} label="Message" rows={6} autoFocus={firstBad === "message"} />
          {/* Honeypot: hidden from people and assistive technology; bots fill it. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor="contact-website">Leave this field empty</label>
            <input id="contact-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <SubmitButton>Send Message</SubmitButton>
            <p
              role="status"
              aria-live="polite"
              className={`scroll-mt-24 outline-none ${succeeded ? "font-medium text-green-800" : "font-medium text-red-700"}`}
              id={form.errorId}
              data-testid="contact-result"
              tabIndex={focusResult ? -1 : undefined}
              autoFocus={focusResult}
            >
              {succeeded ? CONTACT_MESSAGES.success : form.errors?.join(" ")}
            </p>
          </div>
        </form>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PENDING_SCRIPT }} />
      </div>
    </section>
  );
}
