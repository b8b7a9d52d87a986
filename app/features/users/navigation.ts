/**
 * The portal's header bars per role and area (docs/product.md#header-bars).
 */
import type { NavItem } from "#app/components/portal-header";
import type { Role } from "#app/db/enums";
import { homeFor } from "./actor";

/** A portal area: which header bar a page shows. */
export type PortalArea = "admin" | "ambassador" | "client";

/** Each area's title (shown in the header) and home page. */
export const AREAS: Record<PortalArea, { title: string; home: string }> = {
  admin: { title: "Admin Console", home: "/admin" },
  ambassador: { title: "Ambassador Portal", home: "/ambassador/dashboard" },
  client: { title: "Client Portal", home: "/client-dashboard" },
};

/**
 * @param role - the signed-in user's role, or null when signed out.
 * @param area - the area the page belongs to.
 * @returns the links of the header bar, in order (Logout is added by the header when signed in).
 */
export function navItemsFor(role: Role | null, area: PortalArea): NavItem[] {
  if (area === "admin") {
    return [
      { to: "/admin", label: "Dashboard", end: true },
      { to: "/admin/proposals", label: "Proposals" },
      { to: "/admin/invoices", label: "Invoices" },
      { to: "/admin/ambassadors", label: "Ambassador Dashboard" },
      { to: "/admin/users", label: "Users" },
      { to: "/admin/meetings", label: "Meetings" },
      { to: "/admin/messages", label: "Messages" },
      { to: "/admin/audit", label: "Audit trail" },
      { to: "/admin/outbox", label: "Mail outbox" },
      { to: "/admin/settings", label: "Settings" },
    ];
  }
  if (area === "ambassador") {
    return [
      { to: "/ambassador/dashboard", label: "Dashboard" },
      { to: "/ambassador/submit-proposal", label: "Submit Proposal" },
      { to: "/ambassador/earnings", label: "Earnings" },
    ];
  }
  if (!role) {
    return [
      { to: "/login", label: "Login" },
      { to: "/register", label: "Register", end: true },
      { to: "/register/ambassador", label: "Become an Ambassador" },
    ];
  }
  return [
    { to: homeFor(role), label: "Dashboard" },
    { to: "/project-status", label: "Project Status" },
    { to: "/proposal-request", label: "Proposal Request" },
    { to: "/invoices", label: "Invoices" },
    { to: "/meetings", label: "Meetings" },
  ];
}
