import { useRevalidator } from "react-router";
import { LocalDateTime } from "#app/components/local-time";
import { ConfirmAction } from "#app/components/ui/confirm";
import type { FormReply } from "#app/lib/form-action.server";
import type { AccountPageData } from "../../account/page.server";
import { AddPasskey } from "../passkey-buttons";
import { IntentForm, ReplyField, ReplyMessage, replyFor, Section } from "./account-form";

/** Passkeys: the list (rename, remove) and "Add a passkey" (needs JavaScript). */
export function PasskeysSection({ passkeys, reply }: { passkeys: AccountPageData["passkeys"]; reply: FormReply | undefined }) {
  const revalidator = useRevalidator();
  return (
    <Section
      id="passkeys"
      title="Passkeys"
      lead="Sign in with your fingerprint, face or device PIN instead of your password. Passkeys need JavaScript."
    >
      <ReplyMessage reply={replyFor(reply, "remove-passkey")} />
      {passkeys.length ? (
        <ul className="divide-y divide-slate-200" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyRow key={p.id} passkey={p} renamed={replyFor(reply, "rename-passkey", p.id)} />
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">You have no passkeys yet.</p>
      )}
      <AddPasskey onAdded={() => revalidator.revalidate()} />
    </Section>
  );
}

function PasskeyRow({ passkey: p, renamed }: { passkey: AccountPageData["passkeys"][number]; renamed: FormReply | null }) {
  return (
    <li className="flex flex-col gap-3 py-3">
      <p className="font-medium">
        <span>{p.name}</span>
        {p.createdAt ? (
          <span className="ml-2 text-sm font-normal text-slate-700">
            added <LocalDateTime value={p.createdAt} style="date" />
          </span>
        ) : null}
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <IntentForm intent="rename-passkey" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="id" value={p.id} />
          <ReplyMessage reply={renamed && !renamed.fieldErrors ? renamed : null} />
          <ReplyField
            reply={renamed}
            id={`passkey-${p.id}-name`}
            name="name"
            label={`New name for ${p.name}`}
            defaultValue={p.name}
            maxLength={60}
          />
          <button type="submit" className="rounded-md border border-slate-400 px-3 py-2 text-sm font-medium hover:bg-slate-50">
            Rename
          </button>
        </IntentForm>
        <ConfirmAction
          intent="remove-passkey"
          id={p.id}
          label="Remove"
          subject={p.name}
          question="Remove this passkey? It can no longer sign you in."
          confirmLabel="Yes, remove"
          pendingLabel="Removing…"
        />
      </div>
    </li>
  );
}
