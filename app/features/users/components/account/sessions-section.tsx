import { countOf } from "#app/lib/vocabulary";
import { LocalDateTime } from "#app/components/local-time";
import { ConfirmAction } from "#app/components/ui/confirm";
import type { FormReply } from "#app/lib/form-action.server";
import type { AccountPageData } from "../../account/page.server";
import { ReplyMessage, replyFor, Section } from "./account-form";

/** Where you are signed in: one row per session, "Sign out" for each other one and for all others. */
export function SessionsSection({ sessions, reply }: { sessions: AccountPageData["sessions"]; reply: FormReply | undefined }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Section id="sessions" title="Where you are signed in">
      <ReplyMessage reply={replyFor(reply, "revoke-session") ?? replyFor(reply, "revoke-other-sessions")} />
      <ul className="mt-2 divide-y divide-slate-200" aria-label="Active sessions">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="font-medium">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">This device</span>
                ) : null}
              </p>
              <p className="text-sm text-slate-700">
                {s.ipAddress ? `IP ${s.ipAddress} · ` : ""}Last active <LocalDateTime value={s.lastActiveAt} />
              </p>
            </div>
            {s.current ? null : (
              <ConfirmAction
                intent="revoke-session"
                id={s.id}
                label="Sign out"
                subject={s.device}
                question="Sign out this session? Its next page load goes to the sign-in page."
                confirmLabel="Yes, sign out"
                pendingLabel="Signing out…"
              />
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div className="mt-4">
          <ConfirmAction
            intent="revoke-other-sessions"
            id="all"
            label="Sign out everywhere else"
            question={`Sign out the ${countOf(others, "other session")}? This device stays signed in.`}
            confirmLabel="Yes, sign out the others"
            pendingLabel="Signing out…"
          />
        </div>
      ) : null}
    </Section>
  );
}
