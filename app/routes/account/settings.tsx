import type { Role } from "#app/db/enums";
import type { ReactNode } from "react";
import type { Route } from "./+types/settings";
import { PortalShell } from "#app/components/portal-header";
import { servicesContext } from "#app/context";
import { CloseAccountSection } from "#app/features/privacy/components/close-account-section";
import { DownloadDataSection } from "#app/features/privacy/components/download-data-section";
import { accountIntents, loadAccountPage, type AccountPageContext } from "#app/features/users/account/page.server";
import { replyFor } from "#app/features/users/components/account/account-form";
import { EmailSection } from "#app/features/users/components/account/email-section";
import { NotificationsSection } from "#app/features/users/components/account/notifications-section";
import { PasskeysSection } from "#app/features/users/components/account/passkeys-section";
import { PasswordSection } from "#app/features/users/components/account/password-section";
import { ProfileSection } from "#app/features/users/components/account/profile-section";
import { SessionsSection } from "#app/features/users/components/account/sessions-section";
import { TwoFactorSection } from "#app/features/users/components/account/two-factor-section";
import { adminNavGroups, AREAS, navItemsFor } from "#app/features/users/navigation";
import { SidebarShell } from "#app/components/sidebar-shell";
import { GlobalSearch } from "#app/features/search/components/global-search";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { runIntent, type FormReply } from "#app/lib/form-action.server";
import { redirect } from "react-router";
import { SectionLayout } from "#app/components/section-menu";
import {
  ACCOUNT_SECTION_INTENTS,
  ACCOUNT_SECTIONS,
  accountSectionForQuery,
  accountSectionOf,
  type AccountSectionId,
} from "#app/features/users/account-sections";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = ({ location }) => {
  const section = ACCOUNT_SECTIONS.find((s) => s.id === (sectionOfPath(location.pathname) ?? "profile"));
  return [{ title: `${section?.label ?? "Account"} | Account settings` }, { name: "robots", content: "noindex" }];
};

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

function pageContext({ request, context }: Route.LoaderArgs | Route.ActionArgs): AccountPageContext {
  return {
    deps: accountDeps(context),
    env: context.get(servicesContext).env,
    user: requireUser(context),
    meta: requestMeta(request, context),
  };
}

/** The section of the URL (`/account/<section>`, each a route of app/routes.ts), or null for `/account`. */
function sectionOfPath(pathname: string): AccountSectionId | null {
  return accountSectionOf(/^\/account\/([\w-]+)/.exec(pathname)?.[1]);
}

/**
 * What the section shows (docs/product.md#account-page). An old `/account?…` address whose query
 * belongs to another section (`?setup=two-factor`, `?done=`, `?my-data=`) is sent there.
 */
export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const chosen = sectionOfPath(url.pathname);
  if (!chosen) {
    const owner = accountSectionForQuery(url.searchParams);
    if (owner) throw redirect(`/account/${owner}${url.search}`);
  }
  const section = chosen ?? "profile";
  return { section, ...(await loadAccountPage(pageContext(args), url, section)) };
}

/**
 * The section's forms, each posting an `intent` of that section (`ACCOUNT_SECTION_INTENTS`); a
 * post to `/account` (the old single page's forms) takes any of them.
 */
export async function action(args: Route.ActionArgs) {
  const all = accountIntents(pageContext(args));
  const section = sectionOfPath(new URL(args.request.url).pathname);
  if (!section) return runIntent(args, all);
  const mine = ACCOUNT_SECTION_INTENTS[section];
  return runIntent(args, Object.fromEntries(Object.entries(all).filter(([intent]) => mine.includes(intent))));
}

/** /account/<section>: the section's parts, for every signed-in role, with the section menu. */
export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { user, section } = loaderData;
  const area = user.role === "admin" ? "admin" : user.role === "ambassador" ? "ambassador" : "client";
  const reply = actionData as FormReply | undefined;
  return (
    <AccountFrame area={area} role={user.role}>
      <SectionLayout
        title="Account settings"
        lead={`Signed in as ${user.email}.`}
        menuLabel="Account sections"
        sections={ACCOUNT_SECTIONS}
        current={section}
        sectionHeading={false}
      >
        <div className="flex flex-col gap-6">
          {section === "profile" ? (
            <>
              <ProfileSection user={user} reply={replyFor(reply, "profile")} />
              <EmailSection email={user.email} reply={replyFor(reply, "change-email")} />
              {loaderData.preferences ? (
                <NotificationsSection preferences={loaderData.preferences} reply={replyFor(reply, "preferences")} role={user.role} />
              ) : null}
            </>
          ) : null}
          {section === "security" && loaderData.twoFactor ? (
            <>
              <PasswordSection
                minPassword={loaderData.minPassword}
                reply={replyFor(reply, "change-password")}
                done={loaderData.passwordDone}
              />
              <TwoFactorSection
                twoFactor={loaderData.twoFactor}
                setupRequired={loaderData.setupRequired}
                done={loaderData.twoFactorDone}
                reply={reply}
              />
              <PasskeysSection passkeys={loaderData.passkeys} reply={reply} />
            </>
          ) : null}
          {section === "sessions" ? <SessionsSection sessions={loaderData.sessions} reply={reply} /> : null}
          {section === "privacy" ? (
            <>
              <DownloadDataSection notice={loaderData.myData} />
              {loaderData.canClose && loaderData.twoFactor ? (
                <CloseAccountSection
                  twoFactor={loaderData.twoFactor.enabled}
                  reply={replyFor(reply, "close-account")}
                  unpaid={loaderData.unpaidOnClosing}
                />
              ) : null}
            </>
          ) : null}
        </div>
      </SectionLayout>
    </AccountFrame>
  );
}

/** The account page's frame: the admin sidebar for admins (issue #41), else the role's header bar. */
function AccountFrame({ area, role, children }: { area: "admin" | "ambassador" | "client"; role: Role; children: ReactNode }) {
  return area === "admin" ? (
    <SidebarShell groups={adminNavGroups()} title={AREAS.admin.title} search={<GlobalSearch />}>
      <div className="max-w-4xl">{children}</div>
    </SidebarShell>
  ) : (
    <PortalShell items={navItemsFor(role, area)} title="Account" signedIn>
      {children}
    </PortalShell>
  );
}
