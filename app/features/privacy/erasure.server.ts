/**
 * Closing an account (docs/product.md#closing-an-account, ADR 016): the person's data is erased
 * or anonymised, what the law keeps (invoices and payments, with the name and address they were
 * billed to) stays, the sessions end and the e-mail address is free again. One eraser per domain,
 * in a small registry, so that a domain that stores personal data adds its own eraser next to its
 * export section (`export-sections.server.ts`).
 */
import { and, eq, inArray, isNotNull, isNull, like, notInArray, or, sql } from "drizzle-orm";
import type { Transaction } from "#app/db/client.server";
import { clientNameSql } from "#app/features/users/client-name.server";
import {
  account,
  auditEvent,
  dataExport,
  invitation,
  invoice,
  mailOutbox,
  meeting,
  membership,
  messageMail,
  passkey,
  proposal,
  proposalMessage,
  proposalRead,
  rateWindow,
  storedFile,
  session,
  twoFactor,
  user,
  verification,
} from "#app/db/schema";

/** What an eraser knows of the account being closed (read before anything is changed). */
export interface ClosingAccount {
  id: string;
  /** The address the account had (rows keyed by it are erased too). */
  email: string;
}

/** One domain's part of closing an account: runs inside the closing transaction. */
export interface AccountEraser {
  /** The domain, as in the export's sections. */
  domain: string;
  erase(tx: Transaction, closing: ClosingAccount): Promise<void>;
}

/** SQL: the proposal's organisation has no member but `id` (or none): its records go with the person. */
const aloneInOrganisation = (id: string) =>
  sql`(${proposal.organisationId} is null or not exists (select 1 from membership m where m.organisation_id = ${proposal.organisationId} and m.user_id <> ${id}))`;

/** The name a closed account shows everywhere (admin lists, kept invoices' history). */
export const CLOSED_ACCOUNT_NAME = "Closed account";

/** The address a closed account's row gets: unique, undeliverable (RFC 2606 `.invalid`), naming no one. */
export function closedAddress(userId: string): string {
  return `closed-${userId.toLowerCase().replace(/[^a-z0-9]/g, "")}@closed.invalid`;
}

/**
 * The erasers, in order. Proposals first: the invoiced ones freeze the name and address they were
 * billed to before the account row loses them.
 */
export const ACCOUNT_ERASERS: AccountEraser[] = [
  {
    domain: "proposals",
    async erase(tx, { id }) {
      // Not null: a proposal-less invoice (#37) in a NOT IN would make it match nothing.
      const invoiced = tx.select({ id: invoice.proposalId }).from(invoice).where(isNotNull(invoice.proposalId));
      // Kept for the invoice (the law): project name, budget, status, dates; the bill-to frozen;
      // the free text the person wrote is erased.
      const [row] = await tx.select({ name: clientNameSql(), email: user.email }).from(user).where(eq(user.id, id));
      await tx
        .update(proposal)
        .set({
          clientName: row?.name ?? CLOSED_ACCOUNT_NAME,
          clientEmail: row?.email ?? null,
          projectDetails: "",
          targetAudience: null,
          designInspiration: null,
          revisionComment: null,
          declineReason: null,
          timeline: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(proposal.clientId, id), inArray(proposal.id, invoiced), aloneInOrganisation(id)));
      // Everything else they own as a client goes — unless their organisation goes on without them:
      // its records are the organisation's, and stay (docs/product.md#organisations).
      await tx.delete(proposal).where(and(eq(proposal.clientId, id), notInArray(proposal.id, invoiced), aloneInOrganisation(id)));
      // Proposals an ambassador addressed to the e-mail address and nobody claimed stay: they wait
      // for whoever proves the address (the account closed may not have been its owner's).
    },
  },
  {
    domain: "conversations",
    async erase(tx, { id }) {
      // Conversations of the proposals deleted above went with them. In the ones kept (an invoiced
      // proposal, another client's as an admin's), what the person wrote is erased: the message stays
      // as "message deleted" by "Closed account", and the files they shared are deleted (a trigger
      // queues their bytes for deletion from the file store).
      await tx.delete(storedFile).where(eq(storedFile.uploadedById, id));
      await tx
        .update(proposalMessage)
        .set({
          body: "",
          authorName: CLOSED_ACCOUNT_NAME,
          mailMessageId: null,
          deletedAt: sql`coalesce(${proposalMessage.deletedAt}, now())`,
        })
        .where(eq(proposalMessage.authorId, id));
      await tx.delete(proposalRead).where(eq(proposalRead.userId, id));
      await tx.delete(messageMail).where(eq(messageMail.userId, id));
    },
  },
  {
    domain: "meetings",
    async erase(tx, { id }) {
      await tx
        .delete(meeting)
        .where(
          and(
            eq(meeting.userId, id),
            sql`(${meeting.organisationId} is null or not exists (select 1 from membership m where m.organisation_id = ${meeting.organisationId} and m.user_id <> ${id}))`,
          ),
        );
    },
  },
  {
    domain: "organisations",
    async erase(tx, { id, email }) {
      // The person leaves their organisations, which keep their records (the last owner of an
      // organisation with other people was asked to hand over first: closeOwnAccount).
      await tx.delete(membership).where(eq(membership.userId, id));
      await tx.delete(invitation).where(and(eq(invitation.email, email.toLowerCase()), isNull(invitation.acceptedAt)));
    },
  },
  {
    domain: "sign-in",
    async erase(tx, { id, email }) {
      await tx.delete(session).where(eq(session.userId, id));
      await tx.delete(account).where(eq(account.userId, id));
      await tx.delete(twoFactor).where(eq(twoFactor.userId, id));
      await tx.delete(passkey).where(eq(passkey.userId, id));
      // Reset links, pending two-factor sign-ins and e-mail changes name the user by id.
      await tx.delete(verification).where(or(eq(verification.value, id), like(verification.value, `%"userId":"${id}"%`)));
      await tx.delete(rateWindow).where(like(rateWindow.key, `%${email}%`));
    },
  },
  {
    domain: "mail",
    async erase(tx, { email }) {
      await tx.delete(mailOutbox).where(eq(mailOutbox.to, email));
    },
  },
  {
    domain: "downloads",
    async erase(tx, { id }) {
      await tx.delete(dataExport).where(eq(dataExport.userId, id));
    },
  },
  {
    domain: "audit",
    async erase(tx, { id, email }) {
      // Who did what, when, stays; the copies of their personal fields go.
      await tx.update(auditEvent).set({ actorEmail: CLOSED_ACCOUNT_NAME }).where(eq(auditEvent.actorId, id));
      await tx.update(auditEvent).set({ actorEmail: CLOSED_ACCOUNT_NAME }).where(eq(auditEvent.actorEmail, email));
      await tx
        .update(auditEvent)
        .set({ before: null, after: null })
        .where(and(eq(auditEvent.entity, "user"), eq(auditEvent.entityId, id)));
    },
  },
];

/**
 * Erases a user's personal data and closes the account, inside the caller's transaction: every
 * eraser of {@link ACCOUNT_ERASERS}, then the account row itself becomes "Closed account" at an
 * undeliverable address (the real one is free again), deactivated, with no profile, referral link
 * ID or notifications. Kept: the row's id, role and dates (invoices, payments, commissions and the
 * audit trail point to it). Closing a closed account changes nothing.
 *
 * @returns false when the user does not exist or was closed already.
 */
export async function eraseAccount(tx: Transaction, userId: string, reason: string): Promise<boolean> {
  const [row] = await tx.select({ email: user.email, closedAt: user.closedAt }).from(user).where(eq(user.id, userId)).for("update");
  if (!row || row.closedAt) return false;
  const closing: ClosingAccount = { id: userId, email: row.email };
  for (const eraser of ACCOUNT_ERASERS) await eraser.erase(tx, closing);
  await tx
    .update(user)
    .set({
      name: CLOSED_ACCOUNT_NAME,
      email: closedAddress(userId),
      emailVerified: false,
      image: null,
      businessName: null,
      phone: null,
      website: null,
      referralCode: null,
      notifyUpdates: false,
      twoFactorEnabled: false,
      banned: true,
      banReason: reason,
      closedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(user.id, userId));
  return true;
}
