/**
 * The portal's header bars per role and area (docs/product.md#header-bars).
 */
import type { NavGroup, NavItem } from "#app/components/portal-header";
import type { OrganisationRole, Role } from "#app/db/enums";
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
 * @param unreadMessages - the conversations' unread count for the "Messages" link's badge.
 * @param organisationRole - a client's role in their current organisation: the links are those of
 *   the areas the role covers (docs/product.md#organisations); absent, every link.
 * @returns the links of the header bar, in order (Logout is added by the header when signed in).
 */
export function navItemsFor(
  role: Role | null,
  area: PortalArea,
  unreadMessages = 0,
  organisationRole?: OrganisationRole | null,
): NavItem[] {
  if (area === "admin") return adminNavGroups(unreadMessages).flatMap((group) => group.items);
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
  const projects = organisationRole !== "billing";
  const money = organisationRole !== "member";
  const items: (NavItem | false)[] = [
    { to: homeFor(role), label: "Dashboard" },
    projects && { to: "/project-status", label: "Project Status" },
    projects && { to: "/proposal-request", label: "Proposal Request" },
    money && { to: "/invoices", label: "Invoices" },
    projects && { to: "/meetings", label: "Meetings" },
    // Billing people too: the conversations an owner added them to (ADR 022).
    { to: "/messages", label: "Messages", badge: unreadMessages },
    role === "client" && { to: "/organisation", label: "Organisation" },
  ];
  return items.filter((item): item is NavItem => item !== false);
}

/**
 * The admin console's sidebar, grouped by job (issue #41): Work, Money, People, Site, System. The
 * flat list of {@link navItemsFor} is these items in this order.
 *
 * @param unreadMessages - the conversations' unread count (the "Messages" badge).
 */
export function adminNavGroups(unreadMessages = 0): NavGroup[] {
  return ADMIN_NAV.map(([label, links]) => ({
    label,
    items: links.map(([to, text]) => ({
      to,
      label: text,
      ...(to === "/admin" ? { end: true } : {}),
      ...(to === "/admin/conversations" ? { badge: unreadMessages } : {}),
    })),
  }));
}

/** The admin sidebar's groups as data: each group's label and its links (path, label). */
const ADMIN_NAV: [string, [string, string][]][] = [
  [
    "Work",
    [
      ["/admin", "Dashboard"],
      ["/admin/proposals", "Proposals"],
      ["/admin/conversations", "Messages"],
      ["/admin/meetings", "Meetings"],
    ],
  ],
  [
    "Money",
    [
      ["/admin/invoices", "Invoices"],
      ["/admin/billing-plans", "Billing plans"],
      ["/admin/card-payments", "Card payments"],
      ["/admin/ambassadors", "Commissions"],
    ],
  ],
  [
    "People",
    [
      ["/admin/organisations", "Organisations"],
      ["/admin/users", "Users"],
    ],
  ],
  [
    "Site",
    [
      ["/admin/messages", "Contact form"],
      ["/admin/case-studies", "Case studies"],
      ["/admin/testimonials", "Testimonials"],
    ],
  ],
  [
    "System",
    [
      ["/admin/settings", "Settings"],
      ["/admin/audit", "Audit trail"],
      ["/admin/outbox", "Mail outbox"],
    ],
  ],
];
