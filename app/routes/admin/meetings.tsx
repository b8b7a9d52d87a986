import { NavLink } from "react-router";
import type { Route } from "./+types/meetings";
import { PageHeading } from "#app/components/page-heading";
import { Pager } from "#app/components/ui/data-table";
import { Toast } from "#app/components/ui/toast";
import { AdminMeetingTable } from "#app/features/meetings/components/admin-meeting-table";
import {
  adminMeetingIntents,
  listMeetingRequests,
  listUpcomingMeetings,
  type MeetingArchive,
} from "#app/features/meetings/meetings.admin.server";
import { actorAndDb } from "#app/features/users/session.server";
import { runIntent } from "#app/lib/form-action.server";
import { pageRequestFrom, parsePageParam } from "#app/lib/pagination";
import { PageNav } from "#app/components/ui/page-nav";

export const meta: Route.MetaFunction = () => [{ title: "Meetings | Admin Console" }, { name: "robots", content: "noindex" }];

/** The lists of /admin/meetings (`?show=`), awaiting an answer first. */
const VIEWS = [
  { show: "awaiting", label: "Awaiting an answer" },
  { show: "upcoming", label: "Upcoming" },
  { show: "past", label: "Past" },
  { show: "closed", label: "Declined and cancelled" },
] as const;
type Show = (typeof VIEWS)[number]["show"];

/** Every meeting (docs/product.md#meetings-admin), one list at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const params = new URL(request.url).searchParams;
  const asked = params.get("show");
  const show: Show = VIEWS.some((v) => v.show === asked) ? (asked as Show) : "awaiting";
  if (show === "awaiting" || show === "upcoming") {
    const list = await listUpcomingMeetings(db, actor, show === "awaiting" ? "pending" : "accepted", {
      page: parsePageParam(params.get("page")),
    });
    return { show, items: list.items, page: null, numbered: { page: list.page, pageCount: list.pageCount } };
  }
  const page = await listMeetingRequests(db, actor, pageRequestFrom(params, { size: 25 }), show as MeetingArchive);
  return { show, items: page.items, page, numbered: null };
}

/** `accept-meeting`, `decline-meeting`, `cancel-meeting`, `delete-meeting` (docs/product.md#meetings-admin). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, adminMeetingIntents(db, actor), { target: "meetingId" });
}

export default function AdminMeetings({ loaderData, actionData }: Route.ComponentProps) {
  const { show, items, page, numbered } = loaderData;
  const view = VIEWS.find((v) => v.show === show)!;
  return (
    <>
      <PageHeading title="Meetings" lead="Requests to answer, meetings ahead and behind. Clients book from your availability (Settings)." />
      <nav aria-label="Meeting lists" className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {VIEWS.map((v) => (
            <li key={v.show}>
              <NavLink
                to={`?show=${v.show}`}
                aria-current={v.show === show ? "page" : undefined}
                className={`inline-block rounded-md border px-3 py-1.5 text-sm ${
                  v.show === show
                    ? "border-brand-700 bg-brand-700 font-semibold text-white"
                    : "border-slate-300 text-slate-800 hover:bg-slate-50"
                }`}
              >
                {v.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Toast message={actionData?.message || null} messageKey={actionData ?? null} tone={actionData?.ok === false ? "error" : "success"} />
      <AdminMeetingTable caption={view.label} rows={items} empty="No meetings in this list." />
      {page ? (
        <Pager page={page} noun="meetings" shown={items.length} />
      ) : numbered ? (
        <PageNav
          page={numbered.page}
          pageCount={numbered.pageCount}
          href={(n) => `?show=${show}${n > 1 ? `&page=${n}` : ""}`}
          linkClassName="btn btn-secondary btn-md"
          order="soonest"
        />
      ) : null}
    </>
  );
}
