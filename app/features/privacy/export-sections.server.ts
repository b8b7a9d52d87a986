/**
 * "Download my data" (docs/product.md#download-my-data): what the portal holds about one user, one
 * section per domain in a small registry. A domain that stores personal data adds its section here
 * (and its eraser in `erasure.server.ts`). Secrets never leave: no password hash, session token,
 * TOTP secret, backup code or passkey key.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import {
  auditEvent,
  commissionEntries,
  invoice,
  invoiceItem,
  mailOutbox,
  meeting,
  membership,
  organisation,
  passkey,
  payments,
  payouts,
  proposal,
  proposalAcceptance,
  proposalMessage,
  proposalVersion,
  session,
  storedFile,
  user,
} from "#app/db/schema";

/** One domain's part of the export. */
export interface ExportSection {
  /** The key in the JSON file, e.g. `proposals`. */
  key: string;
  /** What it holds, for the README in the ZIP. */
  description: string;
  /** Reads the section for the user (plain JSON values; dates as ISO strings once serialised). */
  collect(q: Queryable, userId: string): Promise<unknown>;
  /** Roughly how many rows the section holds (decides whether the export is built in the background). */
  count(q: Queryable, userId: string): Promise<number>;
}

/**
 * The organisations where the user's role covers `roles` (docs/product.md#organisations): an export
 * holds the person's own data and what they can see.
 */
const organisationsOf = (userId: string, roles: string[]) =>
  sql`(select m.organisation_id from membership m where m.user_id = ${userId} and m.role in (${sql.join(
    roles.map((r) => sql`${r}`),
    sql`, `,
  )}))`;

/** The user's proposals: as the client, as the ambassador who made them, and those of their organisations' projects. */
const ownProposals = (userId: string) =>
  or(
    eq(proposal.clientId, userId),
    eq(proposal.ambassadorId, userId),
    inArray(proposal.organisationId, organisationsOf(userId, ["owner", "member"])),
  );

/** The invoices the user sees: issued to them, and those of the organisations where they are owner or billing. */
const ownInvoices = (userId: string) =>
  or(eq(invoice.clientId, userId), inArray(invoice.organisationId, organisationsOf(userId, ["owner", "billing"])));

/** The meetings the user booked, and those of the organisations where they are owner or member. */
const ownMeetings = (userId: string) =>
  or(eq(meeting.userId, userId), inArray(meeting.organisationId, organisationsOf(userId, ["owner", "member"])));

async function proposalIds(q: Queryable, userId: string): Promise<number[]> {
  return (await q.select({ id: proposal.id }).from(proposal).where(ownProposals(userId))).map((r) => r.id);
}

/**
 * The conversation messages the user can see: the agency's and their own shared messages in the
 * conversations of their proposals as the client (never an internal note), and every message they
 * wrote themselves (an admin's notes included). Deleted messages are left out.
 */
const visibleMessages = (userId: string) =>
  and(
    sql`${proposalMessage.deletedAt} is null`,
    or(
      eq(proposalMessage.authorId, userId),
      and(
        eq(proposalMessage.visibility, "shared"),
        inArray(proposalMessage.proposalId, sql`(select ${proposal.id} from ${proposal} where ${ownProposals(userId)})`),
      ),
    ),
  );

/** The sections, in the order of the JSON file. */
export const EXPORT_SECTIONS: ExportSection[] = [
  {
    key: "account",
    description: "Your account: name, e-mail, role, profile, referral link ID, preferences, dates.",
    async collect(q, userId) {
      const [row] = await q
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          emailVerified: user.emailVerified,
          role: user.role,
          businessName: user.businessName,
          phone: user.phone,
          website: user.website,
          referralCode: user.referralCode,
          referredById: user.referredById,
          notifyUpdates: user.notifyUpdates,
          notifyReminders: user.notifyReminders,
          remindersPaused: user.remindersPaused,
          twoFactorEnabled: user.twoFactorEnabled,
          createdAt: user.createdAt,
          lastLoginAt: user.lastLoginAt,
        })
        .from(user)
        .where(eq(user.id, userId));
      return row ?? null;
    },
    count: async () => 1,
  },
  {
    key: "organisations",
    description: "The client organisations you belong to: their details, your role, who invited you and when you joined.",
    collect: (q, userId) =>
      q
        .select({
          organisationId: organisation.id,
          name: organisation.name,
          address: organisation.address,
          taxId: organisation.taxId,
          website: organisation.website,
          role: membership.role,
          invitedById: membership.invitedById,
          joinedAt: membership.createdAt,
        })
        .from(membership)
        .innerJoin(organisation, eq(organisation.id, membership.organisationId))
        .where(eq(membership.userId, userId))
        .orderBy(asc(membership.createdAt)),
    count: async (q, userId) =>
      (await q.select({ id: membership.organisationId }).from(membership).where(eq(membership.userId, userId))).length,
  },
  {
    key: "proposals",
    description: "Every proposal you requested, were offered, or made as an ambassador, with all its fields.",
    collect: (q, userId) => q.select().from(proposal).where(ownProposals(userId)).orderBy(asc(proposal.id)),
    count: async (q, userId) => (await proposalIds(q, userId)).length,
  },
  {
    key: "meetings",
    description: "Your meeting requests: time, time zone, notes, status.",
    collect: (q, userId) => q.select().from(meeting).where(ownMeetings(userId)).orderBy(asc(meeting.id)),
    count: async (q, userId) => (await q.select({ id: meeting.id }).from(meeting).where(ownMeetings(userId))).length,
  },
  {
    key: "invoices",
    description: "Your invoices and their lines (amounts in cents).",
    async collect(q, userId) {
      const invoices = await q.select().from(invoice).where(ownInvoices(userId)).orderBy(asc(invoice.id));
      if (!invoices.length) return [];
      const items = await q
        .select()
        .from(invoiceItem)
        .where(
          inArray(
            invoiceItem.invoiceId,
            invoices.map((i) => i.id),
          ),
        )
        .orderBy(asc(invoiceItem.invoiceId), asc(invoiceItem.position));
      return invoices.map((i) => ({ ...i, items: items.filter((item) => item.invoiceId === i.id) }));
    },
    count: async (q, userId) => (await q.select({ id: invoice.id }).from(invoice).where(ownInvoices(userId))).length,
  },
  {
    key: "payments",
    description: "The payments and refunds on your invoices (amounts in cents; a refund is negative).",
    collect: (q, userId) =>
      q
        .select({
          id: payments.id,
          invoiceId: payments.invoiceId,
          amountCents: payments.amountCents,
          currency: payments.currency,
          method: payments.method,
          receivedAt: payments.receivedAt,
          reference: payments.reference,
          refundOf: payments.refundOf,
          processorPaymentIntent: payments.processorPaymentIntent,
        })
        .from(payments)
        .innerJoin(invoice, eq(invoice.id, payments.invoiceId))
        .where(ownInvoices(userId))
        .orderBy(asc(payments.id)),
    count: async (q, userId) =>
      (await q.select({ id: payments.id }).from(payments).innerJoin(invoice, eq(invoice.id, payments.invoiceId)).where(ownInvoices(userId)))
        .length,
  },
  {
    key: "agreements",
    description:
      "The versions of the terms the agency sent you (or that you submitted as an ambassador) and your acceptances: typed name, time, IP address, browser, hash, certificate id.",
    async collect(q, userId) {
      const ids = await proposalIds(q, userId);
      if (!ids.length) return { versions: [], acceptances: [] };
      const versions = await q
        .select({
          proposalId: proposalVersion.proposalId,
          number: proposalVersion.number,
          terms: proposalVersion.terms,
          sha256: proposalVersion.sha256,
          createdAt: proposalVersion.createdAt,
        })
        .from(proposalVersion)
        .where(inArray(proposalVersion.proposalId, ids))
        .orderBy(asc(proposalVersion.proposalId), asc(proposalVersion.number));
      const acceptances = await q
        .select()
        .from(proposalAcceptance)
        .where(eq(proposalAcceptance.userId, userId))
        .orderBy(asc(proposalAcceptance.id));
      return { versions, acceptances };
    },
    count: async (q, userId) =>
      (await q.select({ id: proposalAcceptance.id }).from(proposalAcceptance).where(eq(proposalAcceptance.userId, userId))).length,
  },
  {
    key: "commissions",
    description: "As an ambassador: your commission ledger (one entry per payment or refund, cents) and your payouts.",
    async collect(q, userId) {
      return {
        entries: await q
          .select()
          .from(commissionEntries)
          .where(eq(commissionEntries.ambassadorId, userId))
          .orderBy(asc(commissionEntries.id)),
        payouts: await q.select().from(payouts).where(eq(payouts.ambassadorId, userId)).orderBy(asc(payouts.id)),
      };
    },
    count: async (q, userId) =>
      (await q.select({ id: commissionEntries.id }).from(commissionEntries).where(eq(commissionEntries.ambassadorId, userId))).length,
  },
  {
    key: "messages",
    description: "The conversation messages you can see: your projects' conversations and every message you wrote.",
    collect: (q, userId) =>
      q
        .select({
          id: proposalMessage.id,
          proposalId: proposalMessage.proposalId,
          authorName: proposalMessage.authorName,
          authorRole: proposalMessage.authorRole,
          visibility: proposalMessage.visibility,
          via: proposalMessage.via,
          body: proposalMessage.body,
          createdAt: proposalMessage.createdAt,
          editedAt: proposalMessage.editedAt,
        })
        .from(proposalMessage)
        .where(visibleMessages(userId))
        .orderBy(asc(proposalMessage.id)),
    count: async (q, userId) => (await q.select({ id: proposalMessage.id }).from(proposalMessage).where(visibleMessages(userId))).length,
  },
  {
    key: "files",
    description:
      "The files shared in those messages: name, type, size (bytes), who shared them and when. The files themselves are downloaded from each conversation's Files tab.",
    collect: (q, userId) =>
      q
        .select({
          id: storedFile.id,
          proposalId: storedFile.proposalId,
          messageId: storedFile.messageId,
          name: storedFile.name,
          contentType: storedFile.contentType,
          size: storedFile.size,
          sha256: storedFile.sha256,
          sharedBy: storedFile.uploadedByName,
          sharedAt: storedFile.createdAt,
        })
        .from(storedFile)
        .innerJoin(proposalMessage, eq(proposalMessage.id, storedFile.messageId))
        .where(visibleMessages(userId))
        .orderBy(asc(storedFile.id)),
    count: async (q, userId) =>
      (
        await q
          .select({ id: storedFile.id })
          .from(storedFile)
          .innerJoin(proposalMessage, eq(proposalMessage.id, storedFile.messageId))
          .where(visibleMessages(userId))
      ).length,
  },
  {
    key: "sessions",
    description: "Where you are signed in: when each session started and was last used, its IP address and browser.",
    collect: (q, userId) =>
      q
        .select({
          createdAt: session.createdAt,
          lastActiveAt: session.updatedAt,
          expiresAt: session.expiresAt,
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
        })
        .from(session)
        .where(eq(session.userId, userId))
        .orderBy(asc(session.createdAt)),
    count: async (q, userId) => (await q.select({ id: session.id }).from(session).where(eq(session.userId, userId))).length,
  },
  {
    key: "passkeys",
    description: "The names and dates of your passkeys (never their keys).",
    collect: (q, userId) =>
      q
        .select({ name: passkey.name, createdAt: passkey.createdAt, deviceType: passkey.deviceType, backedUp: passkey.backedUp })
        .from(passkey)
        .where(eq(passkey.userId, userId)),
    count: async () => 1,
  },
  {
    key: "auditTrail",
    description: "What was recorded about you and your proposals and invoices, and what you did, with times.",
    async collect(q, userId) {
      const ids = (await proposalIds(q, userId)).map(String);
      const invoiceIds = (await q.select({ id: invoice.id }).from(invoice).where(ownInvoices(userId))).map((r) => String(r.id));
      return q
        .select({
          at: auditEvent.createdAt,
          entity: auditEvent.entity,
          entityId: auditEvent.entityId,
          action: auditEvent.action,
          before: auditEvent.before,
          after: auditEvent.after,
          byYou: sql<boolean>`${auditEvent.actorId} is not distinct from ${userId}`,
        })
        .from(auditEvent)
        .where(
          or(
            eq(auditEvent.actorId, userId),
            and(eq(auditEvent.entity, "user"), eq(auditEvent.entityId, userId)),
            ids.length ? and(eq(auditEvent.entity, "proposal"), inArray(auditEvent.entityId, ids)) : undefined,
            invoiceIds.length ? and(eq(auditEvent.entity, "invoice"), inArray(auditEvent.entityId, invoiceIds)) : undefined,
          ),
        )
        .orderBy(asc(auditEvent.id));
    },
    count: async (q, userId) => (await q.select({ id: auditEvent.id }).from(auditEvent).where(eq(auditEvent.actorId, userId))).length,
  },
  {
    key: "emails",
    description: "The e-mails we sent or are sending you: subject, text and times.",
    async collect(q, userId) {
      const [row] = await q.select({ email: user.email }).from(user).where(eq(user.id, userId));
      if (!row) return [];
      return q
        .select({ subject: mailOutbox.subject, text: mailOutbox.text, queuedAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, row.email))
        .orderBy(asc(mailOutbox.id));
    },
    async count(q, userId) {
      const [row] = await q.select({ email: user.email }).from(user).where(eq(user.id, userId));
      return row ? (await q.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, row.email))).length : 0;
    },
  },
];
