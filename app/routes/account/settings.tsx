import type { Role } from "#app/db/enums";
import type { ReactNode } from "react";
import type { Route } from "./+types/settings";
import { PortalShell } from "#app/components/portal-header";
import { PageHeading } from "#app/components/page-heading";
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
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Account settings" }, { name: "robots", content: "noindex" }];

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

function pageContext({ request, context }: Route.LoaderArgs | Route.ActionArgs): AccountPageContext {
  return {
    deps: accountDeps(context),
    env: context.get(servicesContext).env,
    user: requireUser(context),
    meta: requestMeta(request, context),
  };
}

/** What each section shows (docs/product.md#account-page). */
export async function loader(args: Route.LoaderArgs) {
  return loadAccountPage(pageContext(args), new URL(args.request.url));
}

/** The page's forms, each posting an `intent` (`accountIntents`). */
export async function action(args: Route.ActionArgs) {
  return runIntent(args, accountIntents(pageContext(args)));
}

/** /account: one section per concern, for every signed-in role. */
export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const area = user.role === "admin" ? "admin" : user.role === "ambassador" ? "ambassador" : "client";
  const reply = actionData as FormReply | undefined;
  return (
    <AccountFrame area={area} role={user.role}>
      <PageHeading title="Account settings" lead={`Signed in as ${user.email}.`} />
      <div className="flex flex-col gap-6">
        <ProfileSection user={user} reply={replyFor(reply, "profile")} />
        <EmailSection email={user.email} reply={replyFor(reply, "change-email")} />
        <PasswordSection minPassword={loaderData.minPassword} reply={replyFor(reply, "change-password")} done={loaderData.passwordDone} />
        <TwoFactorSection
          twoFactor={loaderData.twoFactor}
          setupRequired={loaderData.setupRequired}
          done={loaderData.twoFactorDone}
          reply={reply}
        />
        <PasskeysSection passkeys={loaderData.passkeys} reply={reply} />
        <SessionsSection sessions={loaderData.sessions} reply={reply} />
        <NotificationsSection preferences={loaderData.preferences} reply={replyFor(reply, "preferences")} role={user.role} />
        <DownloadDataSection notice={loaderData.myData} />
        {loaderData.canClose ? (
          <CloseAccountSection
            twoFactor={loaderData.twoFactor.enabled}
            reply={replyFor(reply, "close-account")}
            unpaid={loaderData.unpaidOnClosing}
          />
        ) : null}
      </div>
    </AccountFrame>
  );
}

/** The account page's frame: the admin sidebar for admins (issue #41), else the role's header bar. */
function AccountFrame({ area, role, children }: { area: "admin" | "ambassador" | "client"; role: Role; children: ReactNode }) {
  return area === "admin" ? (
    <SidebarShell groups={adminNavGroups()} title={AREAS.admin.title} search={<GlobalSearch />}>
      <div className="max-w-2xl">{children}</div>
    </SidebarShell>
  ) : (
    <PortalShell items={navItemsFor(role, area)} title="Account" signedIn width="medium">
      {children}
    </PortalShell>
  );
}
