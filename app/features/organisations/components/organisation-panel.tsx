/**
 * The organisation page (docs/product.md#organisations), shared by the client's `/organisation` and
 * the admin's `/admin/organisations/:organisationId`: the details, the people with their roles, the
 * invitation form and the open invitations. Owners (and admins) get the forms; everyone else reads.
 * Plain posted forms: it all works without JavaScript.
 */
import { Form, useNavigation } from "react-router";
import type { OrganisationRole } from "#app/db/enums";
import { buttonClass } from "#app/components/ui/button";
import { CardSection } from "#app/components/ui/card-section";
import { ConfirmAction } from "#app/components/ui/confirm";
import { InputField, SubmitButton } from "#app/components/ui/field";
import { ActionNotice } from "#app/components/ui/notice";
import { useFocusOnArrival } from "#app/lib/use-focus-result";

/** How each role is shown, with what it may do. */
export const ROLE_OPTIONS: readonly { value: OrganisationRole; label: string; hint: string }[] = [
  { value: "owner", label: "Owner", hint: "everything, signing offers and managing people" },
  { value: "billing", label: "Billing", hint: "invoices, payments and receipts" },
  { value: "member", label: "Member", hint: "projects, conversations, files and meetings" },
];

const roleLabel = (role: OrganisationRole) => ROLE_OPTIONS.find((r) => r.value === role)?.label ?? role;

/** The page's data (the loader's `getOrganisationPage`, dates as the loader serialises them). */
export interface OrganisationPanelData {
  id: number;
  name: string;
  address: string | null;
  taxId: string | null;
  website: string | null;
  members: Array<{
    userId: string;
    name: string;
    email: string;
    role: OrganisationRole;
    createdAt: string | Date;
    invitedBy: string | null;
  }>;
  invitations: Array<{ id: number; email: string; role: OrganisationRole; expiresAt: string | Date }>;
  canManage: boolean;
}

/** An action's reply as the panel reads it. */
export interface PanelReply {
  intent?: string;
  ok: boolean;
  message?: string;
  fieldErrors?: Record<string, string[]>;
}

const dateText = (value: string | Date) => new Date(value).toISOString().slice(0, 10);

export function OrganisationPanel({ org, reply, me }: { org: OrganisationPanelData; reply?: PanelReply | null; me?: string }) {
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const errors = (intent: string, field: string) => (reply?.intent === intent ? reply.fieldErrors?.[field] : undefined);
  const noticeRef = useFocusOnArrival<HTMLDivElement>(reply ?? null);
  const owners = org.members.filter((m) => m.role === "owner").length;
  return (
    <div className="flex flex-col gap-6">
      <div ref={noticeRef} tabIndex={-1} className="outline-none">
        <ActionNotice result={reply} />
      </div>

      <CardSection id="people-title" title="People">
        <ul className="flex flex-col divide-y divide-slate-200" aria-labelledby="people-title">
          {org.members.map((m) => (
            <li key={m.userId} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-member={m.email}>
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">
                  {m.name || m.email}
                  {m.userId === me ? <span className="text-slate-600"> (you)</span> : null}
                </p>
                <p className="text-sm break-all text-slate-700">{m.email}</p>
                <p className="text-xs text-slate-600">
                  {roleLabel(m.role)} · since {dateText(m.createdAt)}
                  {m.invitedBy ? ` · invited by ${m.invitedBy}` : ""}
                </p>
              </div>
              {org.canManage ? (
                <div className="flex flex-wrap items-end gap-2">
                  <Form method="post" className="flex items-end gap-2" preventScrollReset>
                    <input type="hidden" name="intent" value="change-role" />
                    <input type="hidden" name="userId" value={m.userId} />
                    <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
                      Role of {m.name || m.email}
                      <select
                        name="role"
                        defaultValue={m.role}
                        className="rounded-md border border-slate-400 bg-white px-2 py-1.5 text-slate-900"
                      >
                        {ROLE_OPTIONS.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    </label>
                    <button type="submit" className={buttonClass("secondary")} disabled={pending("change-role")}>
                      Change role
                    </button>
                  </Form>
                  {m.role === "owner" && owners <= 1 ? null : (
                    <ConfirmAction
                      intent="remove"
                      id={m.userId}
                      label="Remove"
                      subject={m.name || m.email}
                      question={`Remove ${m.name || m.email} from ${org.name}?`}
                      details="Their access to the organisation's projects, conversations and invoices ends at once."
                      confirmLabel="Yes, remove"
                      pendingLabel="Removing…"
                    />
                  )}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {me && org.members.some((m) => m.userId === me) && !(owners <= 1 && org.members.find((m) => m.userId === me)?.role === "owner") ? (
          <div className="mt-4">
            <ConfirmAction
              intent="leave"
              id={me}
              label="Leave this organisation"
              question={`Leave ${org.name}?`}
              details="You lose access to its projects, conversations and invoices at once. An owner can invite you again."
              confirmLabel="Yes, leave"
              pendingLabel="Leaving…"
            />
          </div>
        ) : null}
      </CardSection>

      {org.canManage ? (
        <CardSection id="invite-title" title="Invite someone">
          <Form method="post" className="flex flex-col gap-4" preventScrollReset>
            <input type="hidden" name="intent" value="invite" />
            <InputField
              id="invite-email"
              name="email"
              type="email"
              label="Email"
              required
              maxLength={254}
              autoComplete="off"
              errors={errors("invite", "email")}
            />
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium text-slate-800">Role</legend>
              {ROLE_OPTIONS.map((r) => (
                <label key={r.value} className="flex items-start gap-2 text-sm text-slate-800">
                  <input type="radio" name="role" value={r.value} defaultChecked={r.value === "member"} className="mt-1" />
                  <span>
                    <span className="font-medium">{r.label}</span> — {r.hint}
                  </span>
                </label>
              ))}
            </fieldset>
            <div>
              <SubmitButton pending={pending("invite")} pendingLabel="Sending…">
                Send invitation
              </SubmitButton>
            </div>
          </Form>
          <h3 className="mt-6 font-semibold text-slate-900">Open invitations</h3>
          {org.invitations.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No open invitations.</p>
          ) : (
            <ul className="mt-2 flex flex-col divide-y divide-slate-200">
              {org.invitations.map((i) => (
                <li key={i.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between">
                  <p className="text-sm break-all text-slate-800">
                    {i.email} · {roleLabel(i.role)} · expires {dateText(i.expiresAt)}
                  </p>
                  <ConfirmAction
                    intent="revoke"
                    id={i.id}
                    label="Revoke"
                    subject={`the invitation of ${i.email}`}
                    question={`Revoke the invitation of ${i.email}?`}
                    details="Its link stops working at once."
                    confirmLabel="Yes, revoke"
                    pendingLabel="Revoking…"
                  />
                </li>
              ))}
            </ul>
          )}
        </CardSection>
      ) : null}

      <CardSection id="details-title" title="Organisation details">
        {org.canManage ? (
          <Form method="post" className="flex flex-col gap-4" preventScrollReset>
            <input type="hidden" name="intent" value="save-details" />
            <InputField
              id="org-name"
              name="name"
              label="Business name"
              required
              maxLength={200}
              defaultValue={org.name}
              errors={errors("save-details", "name")}
            />
            <InputField
              id="org-address"
              name="address"
              label="Address"
              maxLength={500}
              defaultValue={org.address ?? ""}
              errors={errors("save-details", "address")}
            />
            <InputField
              id="org-tax-id"
              name="taxId"
              label="Tax ID"
              maxLength={64}
              defaultValue={org.taxId ?? ""}
              errors={errors("save-details", "taxId")}
            />
            <InputField
              id="org-website"
              name="website"
              type="url"
              label="Website"
              maxLength={500}
              defaultValue={org.website ?? ""}
              errors={errors("save-details", "website")}
            />
            <div>
              <SubmitButton pending={pending("save-details")} pendingLabel="Saving…">
                Save details
              </SubmitButton>
            </div>
          </Form>
        ) : (
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <dt className="font-medium text-slate-800">Business name</dt>
            <dd className="break-words text-slate-900">{org.name}</dd>
            <dt className="font-medium text-slate-800">Address</dt>
            <dd className="break-words text-slate-900">{org.address || "—"}</dd>
            <dt className="font-medium text-slate-800">Tax ID</dt>
            <dd className="break-words text-slate-900">{org.taxId || "—"}</dd>
            <dt className="font-medium text-slate-800">Website</dt>
            <dd className="break-all text-slate-900">{org.website || "—"}</dd>
          </dl>
        )}
      </CardSection>
    </div>
  );
}
