import type { InputHTMLAttributes } from "react";
import { InputField } from "#app/components/ui/field";
import type { FormReply } from "#app/lib/form-action.server";
import type { AccountPageData } from "../../account/page.server";
import { errorsOf, IntentForm, ReplyMessage, Section, Submit } from "./account-form";

/** Profile: a client's business name, phone and website; an ambassador's name and phone; an admin's name. */
export function ProfileSection({ user, reply }: { user: AccountPageData["user"]; reply: FormReply | null }) {
  const field = (name: string, label: string, value: string | null, extra: Partial<InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <InputField id={`profile-${name}`} name={name} label={label} defaultValue={value ?? ""} errors={errorsOf(reply, name)} {...extra} />
  );
  return (
    <Section id="profile" title="Profile">
      <IntentForm intent="profile">
        <ReplyMessage reply={reply} />
        {user.role === "client" ? (
          <>
            {field("businessName", "Business name", user.businessName, { autoComplete: "organization", required: true, maxLength: 200 })}
            {field("phone", "Phone", user.phone, { type: "tel", autoComplete: "tel", required: true, maxLength: 40 })}
            {field("website", "Website (optional)", user.website, { type: "url", autoComplete: "url", placeholder: "https://" })}
          </>
        ) : user.role === "ambassador" ? (
          <>
            {field("name", "Name", user.name, { autoComplete: "name", required: true, maxLength: 200 })}
            {field("phone", "Phone", user.phone, { type: "tel", autoComplete: "tel", required: true, maxLength: 40 })}
            <p className="text-sm text-slate-700">
              Referral link ID: <strong>{user.referralCode}</strong> (it cannot change: your links keep working).
            </p>
          </>
        ) : (
          field("name", "Name", user.name, { autoComplete: "name", required: true, maxLength: 200 })
        )}
        <Submit intent="profile" pendingLabel="Saving…">
          Save profile
        </Submit>
      </IntentForm>
    </Section>
  );
}
