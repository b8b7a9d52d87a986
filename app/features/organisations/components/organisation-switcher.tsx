/**
 * The client area's organisation bar (docs/product.md#organisations): the organisation the person
 * works in and their role, and — for a person in several — a form that switches to another. The
 * chosen id is posted (never part of a URL); the server checks the membership.
 */
import { Form, useNavigation } from "react-router";
import type { OrganisationRole } from "#app/db/enums";
import { buttonClass } from "#app/components/ui/button";

const ROLE_NAMES: Record<OrganisationRole, string> = { owner: "Owner", billing: "Billing", member: "Member" };

export function OrganisationSwitcher({
  current,
  organisations,
}: {
  current: number | null;
  organisations: Array<{ id: number; name: string; role: OrganisationRole }>;
}) {
  const navigation = useNavigation();
  const switching = navigation.state === "submitting" && navigation.formAction === "/organisation/switch";
  const here = organisations.find((o) => o.id === current);
  if (!here) return null;
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <p className="min-w-0 text-slate-800">
        <span className="font-semibold break-words">{here.name}</span> <span className="text-slate-600">· {ROLE_NAMES[here.role]}</span>
      </p>
      {organisations.length > 1 ? (
        <Form method="post" action="/organisation/switch" className="flex flex-wrap items-center gap-2">
          <label htmlFor="organisation-switch" className="font-medium text-slate-800">
            Switch organisation
          </label>
          <select
            id="organisation-switch"
            name="organisationId"
            defaultValue={here.id}
            className="max-w-[14rem] rounded-md border border-slate-400 bg-white px-2 py-1.5 text-slate-900"
          >
            {organisations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name} ({ROLE_NAMES[o.role]})
              </option>
            ))}
          </select>
          <button type="submit" className={buttonClass("secondary")} disabled={switching} aria-busy={switching || undefined}>
            {switching ? "Switching…" : "Switch"}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
