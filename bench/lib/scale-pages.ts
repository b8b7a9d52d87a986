/**
 * The portal pages the scale benchmark measures (bench/portal-scale.ts): each page's path (ids
 * resolved on the seeded data), the role whose session loads it, and the use-cases its loader calls
 * — run on their own to capture and explain the page's queries (bench/lib/scale-explain.ts) and, for
 * the pages of one client or one ambassador, to check in a test that every query is driven by an
 * index on the owner (app/db/owner-index.server.test.ts).
 */
import { eq, max, type SQL } from "drizzle-orm";
import type { Database } from "../../app/db/client.server";
import { invoice, proposal, user } from "../../app/db/schema";
import { listAuditEvents } from "../../app/features/audit/audit.server";
import { countUnreadMessages, inboxFiltersFrom, listContactMessages } from "../../app/features/contact/inbox.server";
import { invoiceListFiltersFrom } from "../../app/features/invoices/invoices.schema";
import { getInvoiceForClient, clientBalance, listClientInvoices } from "../../app/features/invoices/invoices.server";
import { invoiceSummary, listInvoicesForAdmin } from "../../app/features/invoices/invoices.admin.server";
import { listClientMeetings, listUpcomingClientMeetings } from "../../app/features/meetings/meetings.server";
import { listMeetingRequests, listPendingMeetingRequests } from "../../app/features/meetings/meetings.admin.server";
import { getProposalForAdmin } from "../../app/features/proposals/proposal-detail.server";
import { proposalListFiltersFrom } from "../../app/features/proposals/proposals.admin.schema";
import { countProposals, listProposalsForAdmin } from "../../app/features/proposals/proposals.admin.server";
import { listAwaitingApproval, listClientProjectNames, listClientProposals } from "../../app/features/proposals/proposals.server";
import { listAmbassadorsForAdmin } from "../../app/features/referrals/commissions.admin.server";
import {
  getAmbassadorCommissionTotals,
  getAmbassadorDashboard,
  getAmbassadorEarnings,
  getReferringAmbassador,
} from "../../app/features/referrals/referrals.server";
import { getSettings } from "../../app/features/settings/settings.server";
import { adminNextSteps, clientNextSteps } from "../../app/features/dashboard/next-steps.server";
import { listClientConversations } from "../../app/features/conversations/client-conversations.server";
import { listConversations } from "../../app/features/conversations/inbox.server";
import { getStatusEventsForAmbassador, getThread } from "../../app/features/conversations/timeline.server";
import { getAvailability, slotPickerView } from "../../app/features/meetings/availability.server";
import { listUpcomingMeetings } from "../../app/features/meetings/meetings.admin.server";
import { storageUsed } from "../../app/features/files/uploads.server";
import { getClientProposalWithAgreement, getOfferForAdmin } from "../../app/features/agreements/offers.server";
import { getInvoiceForAdmin } from "../../app/features/invoices/get-invoice-for-admin.server";
import { getInvoiceMoney } from "../../app/features/payments/balance.server";
import { listPaymentsForAdmin } from "../../app/features/payments/record-payment.server";
import { listRemindersFor } from "../../app/features/reminders/admin-reminders.server";
import type { Actor } from "../../app/features/users/actor";
import { countUsers, listUsersForAdmin, userListFiltersFrom } from "../../app/features/users/users.server";
import { pageRequestFrom } from "../../app/lib/pagination";
import { DEMO_ACCOUNTS } from "../../scripts/seed-demo";

export type ScaleRole = "client" | "ambassador" | "admin";

/** Ids a page path needs, read from the seeded data. */
interface Ids {
  clientProposal: number;
  clientInvoice: number;
  anyProposal: number;
  ambassadorProposal: number;
}

/** One measured page. */
export interface ScalePage {
  role: ScaleRole;
  /** The path, with `{clientProposal}`, `{clientInvoice}` or `{anyProposal}` for a seeded id. */
  path: string;
  /** The use-cases its loader calls, as the demo account of `role` (`ids` as in the path). */
  load(db: Database, actor: Actor, ids: Ids): Promise<unknown>;
}

const params = (path: string) => new URL(path, "http://x").searchParams;

/** Every portal page of every role. */
export const PORTAL_SCALE_PAGES: ScalePage[] = [
  {
    role: "client",
    path: "/client-dashboard",
    load: (db, a) =>
      Promise.all([
        getReferringAmbassador(db, a),
        listAwaitingApproval(db, a),
        listUpcomingClientMeetings(db, a),
        clientBalance(db, a),
        getSettings(db),
        clientNextSteps(db, a),
        listClientConversations(db, a),
      ]),
  },
  { role: "client", path: "/messages", load: (db, a) => listClientConversations(db, a, 100) },
  {
    role: "client",
    path: "/meetings",
    load: (db, a) => Promise.all([listClientMeetings(db, a), getSettings(db)]),
  },
  {
    role: "client",
    path: "/meetings/book",
    load: async (db, a) => {
      const { timeZone } = await getAvailability(db);
      return Promise.all([slotPickerView(db, timeZone, null), listClientProjectNames(db, a)]);
    },
  },
  { role: "client", path: "/project-status", load: (db, a) => listClientProposals(db, a, { includeCompleted: false, page: 1 }) },
  {
    role: "client",
    path: "/proposals/{clientProposal}",
    load: (db, a, ids) => Promise.all([getClientProposalWithAgreement(db, a, ids.clientProposal), getThread(db, a, ids.clientProposal)]),
  },
  {
    role: "client",
    path: "/proposals/{clientProposal}/accept",
    load: (db, a, ids) => getClientProposalWithAgreement(db, a, ids.clientProposal),
  },
  { role: "client", path: "/invoices", load: (db, a) => listClientInvoices(db, a, { page: 1 }) },
  { role: "client", path: "/view-invoice/{clientInvoice}", load: (db, a, ids) => getInvoiceForClient(db, a, ids.clientInvoice) },
  {
    role: "ambassador",
    path: "/ambassador/dashboard",
    load: (db, a) => Promise.all([getAmbassadorDashboard(db, a, 1), getAmbassadorCommissionTotals(db, a)]),
  },
  { role: "ambassador", path: "/ambassador/earnings", load: (db, a) => getAmbassadorEarnings(db, a) },
  {
    role: "ambassador",
    path: "/ambassador/proposals/{ambassadorProposal}",
    load: (db, a, ids) => getStatusEventsForAmbassador(db, a, ids.ambassadorProposal),
  },
  {
    role: "admin",
    path: "/admin",
    load: async (db, a) => {
      const invoices = await invoiceSummary(db, a);
      return [
        invoices,
        await adminNextSteps(db, a, new Date(), invoices),
        await countProposals(db, a),
        await countUsers(db, a),
        await listUpcomingMeetings(db, a, "pending", { pageSize: 10 }),
        await listUpcomingMeetings(db, a, "accepted", { pageSize: 10 }),
        await storageUsed(db, a),
      ];
    },
  },
  {
    role: "admin",
    path: "/admin/proposals",
    load: (db, a) => listProposalsForAdmin(db, a, proposalListFiltersFrom(params("/")), pageRequestFrom(params("/"))),
  },
  {
    role: "admin",
    path: "/admin/proposals/{anyProposal}",
    load: (db, a, ids) =>
      Promise.all([
        getProposalForAdmin(db, a, ids.anyProposal),
        getOfferForAdmin(db, a, ids.anyProposal),
        getThread(db, a, ids.anyProposal, { markAsRead: false }),
        listRemindersFor(db, a, "proposal", ids.anyProposal),
      ]),
  },
  {
    role: "admin",
    path: "/admin/proposals/{anyProposal}/offer",
    load: (db, a, ids) => Promise.all([getProposalForAdmin(db, a, ids.anyProposal), getOfferForAdmin(db, a, ids.anyProposal)]),
  },
  {
    role: "admin",
    path: "/admin/invoices/{clientInvoice}/payments",
    load: (db, a, ids) =>
      Promise.all([
        getInvoiceForAdmin(db, a, ids.clientInvoice),
        getInvoiceMoney(db, ids.clientInvoice),
        listPaymentsForAdmin(db, a, ids.clientInvoice),
      ]),
  },
  {
    role: "admin",
    path: "/admin/conversations",
    load: (db, a) => listConversations(db, a, {}, pageRequestFrom(params("/"))),
  },
  {
    role: "admin",
    path: "/admin/meetings",
    load: (db, a) =>
      Promise.all([listPendingMeetingRequests(db, a), listMeetingRequests(db, a, pageRequestFrom(params("/"), { size: 10 }))]),
  },
  {
    role: "admin",
    path: "/admin/invoices",
    load: (db, a) => listInvoicesForAdmin(db, a, invoiceListFiltersFrom(params("/")), pageRequestFrom(params("/"))),
  },
  {
    role: "admin",
    path: "/admin/invoices?filter=overdue",
    load: (db, a) => listInvoicesForAdmin(db, a, invoiceListFiltersFrom(params("/?filter=overdue")), pageRequestFrom(params("/"))),
  },
  {
    role: "admin",
    path: "/admin/users?q=a",
    load: (db, a) => listUsersForAdmin(db, a, userListFiltersFrom(params("/?q=a")), pageRequestFrom(params("/"))),
  },
  {
    role: "admin",
    path: "/admin/ambassadors",
    load: (db, a) => listAmbassadorsForAdmin(db, a, { q: undefined }, pageRequestFrom(params("/"), { size: 20 })),
  },
  {
    role: "admin",
    path: "/admin/messages",
    load: (db, a) =>
      Promise.all([listContactMessages(db, a, inboxFiltersFrom(params("/")), pageRequestFrom(params("/"))), countUnreadMessages(db, a)]),
  },
  { role: "admin", path: "/admin/audit", load: (db, a) => listAuditEvents(db, a) },
];

/** The demo account of each role, as the actor its session would be. */
export async function demoActors(db: Database): Promise<Record<ScaleRole, Actor>> {
  const actors = {} as Record<ScaleRole, Actor>;
  for (const role of ["client", "ambassador", "admin"] as const) {
    const [row] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.email, DEMO_ACCOUNTS[role]));
    if (!row) throw new Error(`the demo ${role} ${DEMO_ACCOUNTS[role]} is missing: seed the database first`);
    actors[role] = { id: row.id, email: row.email, role };
  }
  return actors;
}

/** The seeded ids the page paths name: the demo client's newest proposal and invoice, the newest proposal, the demo ambassador's newest proposal. */
export async function seededIds(db: Database, client: Actor, ambassador?: Actor): Promise<Ids> {
  const newest = async (table: typeof proposal | typeof invoice, where?: SQL) =>
    Number(
      (
        await db
          .select({ id: max(table.id) })
          .from(table)
          .where(where)
      )[0]?.id ?? 0,
    );
  return {
    clientProposal: await newest(proposal, eq(proposal.clientId, client.id)),
    clientInvoice: await newest(invoice, eq(invoice.clientId, client.id)),
    anyProposal: await newest(proposal),
    ambassadorProposal: ambassador ? await newest(proposal, eq(proposal.ambassadorId, ambassador.id)) : 0,
  };
}

/** @returns the page's path with its seeded ids filled in. */
export function pagePath(page: ScalePage, ids: Ids): string {
  return page.path.replace(/\{(\w+)\}/g, (_, key: keyof Ids) => String(ids[key]));
}
