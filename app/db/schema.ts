/**
 * Drizzle schema: the relational form of the product's records (docs/product.md). Column names are
 * snake_case in SQL (drizzle `casing: "snake_case"`), camelCase in TypeScript.
 * Timestamps are `timestamptz` (UTC); money is integer cents.
 */
import { relations, sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

import {
  DEFAULT_WEEKLY_HOURS,
  type CommissionEntryKind,
  type PayoutMethod,
  type MeetingStatus,
  type OrganisationRole,
  type ProposalStatus,
  type Role,
  type WebsiteGoal,
  type WeeklyHours,
} from "./enums";

export * from "./enums";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** Binary data (`bytea`): both drivers return a Buffer / Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** docs/product.md#contact "Contact message": stored before the owner's e-mail is queued. */
export const contactMessage = pgTable(
  "contact_message",
  {
    id: serial().primaryKey(),
    userName: text().notNull(),
    userEmail: text().notNull(),
    userPhone: text(),
    message: text().notNull(),
    ip: text(),
    createdAt: createdAt(),
    /** When the owner first opened it in /admin/messages (null: unread). docs/product.md#admin-messages */
    readAt: timestamp({ withTimezone: true }),
    /** When the owner marked it handled (null: not handled). */
    handledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.createdAt),
    index("contact_message_unread_idx")
      .on(t.id)
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * Durable e-mail outbox. A row is written in the same transaction as the change that
 * causes the mail; the worker in `app/features/mail/outbox.server.ts` delivers it.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial().primaryKey(),
    to: text().notNull(),
    replyTo: text(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text(),
    /** Small text attachments, e.g. a calendar invite. */
    attachments: jsonb().$type<{ filename: string; contentType: string; content: string; encoding?: "base64" }[]>(),
    /** Extra header fields (migration 0018: `Auto-Submitted` on automatic answers to inbound mail). */
    headers: jsonb().$type<Record<string, string>>(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Set while a delivery attempt holds the row (its lease); no other attempt claims it until this passes. */
    lockedUntil: timestamp({ withTimezone: true }),
    /** The attempt holding the lease (migration 0026): the row is marked sent only by that attempt (ADR 019). */
    leaseId: uuid(),
    /** The job (`pgboss.job`, queue `mail`) that delivers this mail; a new one when an admin retries it (ADR 019). */
    jobId: uuid(),
    sentAt: timestamp({ withTimezone: true }),
    /** Set when the last allowed attempt failed (docs/product.md#mail-delivery): the row is no longer tried until an admin retries it. */
    failedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: createdAt(),
    /** Notifications gathered into one mail (e.g. new proposal requests): their kind; null for any other mail. */
    coalesceKey: text(),
    /** The gathered notifications' lines, oldest first (the mail is rendered again from them at each addition). */
    coalescedLines: jsonb().$type<string[]>(),
  },
  (t) => [
    index("mail_outbox_coalesce_idx")
      .on(t.coalesceKey, t.nextAttemptAt)
      .where(sql`${t.coalesceKey} is not null`),
    index("mail_outbox_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
  ],
);

/** Fixed-window rate-limit counters shared by every app instance (contact form, sign-in, …). */
export const rateWindow = pgTable("rate_window", {
  key: text().primaryKey(),
  count: integer().notNull(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  /** When the last hit was counted (the sign-in slow-down waits from the last failure). */
  lastHitAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Idempotency keys of posted forms (issue #36, app/features/submissions): a composer form carries
 * a key generated when it is rendered; the post's write claims `(scope, key)` in its own
 * transaction, so a repeat of the same post (a retry after a connection error) finds the key and
 * answers the first post's `result` without writing anything. Purged after a week.
 */
export const formSubmission = pgTable(
  "form_submission",
  {
    /** Who posted: `user:<id>`, or `contact` for the public contact form. */
    scope: text().notNull(),
    /** The form's key (a UUID, or a digest of a contact message's fields). */
    key: text().notNull(),
    /** The first post's outcome (e.g. `{ id }`), answered to every repeat. */
    result: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("form_submission_created_idx").on(t.createdAt)],
);

/**
 * Row counts per bucket for the admin dashboard: `proposal` by status, `invoice`
 * by status (with `cents`, the sum of totals), `user` by `role:active|inactive` (triggers of
 * migration 0002, one delta row per bucket per statement), and `commission` owed and paid
 * (migration 0004, see ADR 006). Writers never wait on a shared counter row; readers sum the
 * deltas, and `compactTally` folds them into one row per bucket. See `app/db/tally.server.ts`.
 */
export const tally = pgTable(
  "tally",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    entity: text().notNull(),
    bucket: text().notNull(),
    n: bigint({ mode: "number" }).notNull(),
    cents: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [index("tally_entity_idx").on(t.entity)],
);

/** Instance-wide generated values (e.g. the auth secret when BETTER_AUTH_SECRET is unset). */
export const appMeta = pgTable("app_meta", {
  key: text().primaryKey(),
  value: text().notNull(),
});

// ---------------------------------------------------------------------------------------
// Accounts (better-auth core tables + admin plugin fields + our profile columns), docs/product.md#roles
// ---------------------------------------------------------------------------------------

export const user = pgTable(
  "user",
  {
    id: text().primaryKey(),
    /** Ambassador's name, or the client's contact name (the business name when none is given). */
    name: text().notNull(),
    email: text().notNull().unique(),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // admin plugin
    role: text().$type<Role>(),
    /** Deactivated (spec "active" = not banned). */
    banned: boolean().default(false),
    banReason: text(),
    banExpires: timestamp({ withTimezone: true }),
    // profile
    businessName: text(),
    phone: text(),
    website: text(),
    /** Ambassador's referral link ID, stored lowercased, unique. */
    referralCode: text(),
    /** The ambassador who referred this client. */
    referredById: text().references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    lastLoginAt: timestamp({ withTimezone: true }),
    /** Non-essential e-mail notifications (status changes, meeting accepted, …). */
    notifyUpdates: boolean().notNull().default(true),
    /** E-mails about new messages in their proposals' conversations (docs/product.md#conversations). */
    notifyMessages: boolean().notNull().default(true),
    /** better-auth twoFactor plugin: TOTP confirmed (docs/product.md#account-page). */
    twoFactorEnabled: boolean().default(false),
    /** When the account was closed (docs/product.md#closing-an-account): its personal data erased, the row kept for what the law keeps. */
    closedAt: timestamp({ withTimezone: true }),
    /** Automatic reminders (docs/product.md#reminders, migration 0022): the user's own "reminders" preference. */
    notifyReminders: boolean().notNull().default(true),
    /** Automatic reminders paused for this client by an admin (migration 0022). */
    remindersPaused: boolean().notNull().default(false),
    /** Issue #41: the IANA zone the person's browser last stated (sign-in, booking, signing): their mails' times; null = the agency's. */
    timeZone: text(),
  },
  (t) => [
    uniqueIndex("user_referral_code_unique").on(t.referralCode),
    index("user_referred_by_idx").on(t.referredById),
    index("user_role_created_idx").on(t.role, t.createdAt),
    // Admin user list: newest first, keyset-paginated on (created_at, id).
    index("user_created_id_idx").on(t.createdAt, t.id),
    // Case-insensitive substring search (ILIKE '%…%') with pg_trgm (see ADR 005).
    index("user_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
    index("user_business_name_trgm_idx").using("gin", t.businessName.op("gin_trgm_ops")),
    index("user_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    // The admin's global search (issue #41): the same expression as SEARCH_VECTORS.user.
    index("user_search_idx").using(
      "gin",
      sql`to_tsvector('simple', coalesce(${t.name}, '') || ' ' || coalesce(${t.businessName}, '') || ' ' || ${t.email})`,
    ),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    impersonatedBy: text(),
    /**
     * The client organisation this session works in (docs/product.md#organisations, migration
     * 0029), switched in the header; null = the person's first organisation. Never trusted alone:
     * every read checks the membership (app/features/organisations/access.server.ts).
     */
    activeOrganisationId: integer().references((): AnyPgColumn => organisation.id, { onDelete: "set null" }),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

/**
 * Relations for better-auth's joined reads (`advanced.database.joins`, app/features/users/auth.server.ts):
 * a session with its user — one statement instead of two on every signed-in request — an
 * account with its user, a user with their accounts.
 */
export const userRelations = relations(user, ({ many }) => ({
  sessions: many(session),
  accounts: many(account),
}));
export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));
export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));

export const verification = pgTable(
  "verification",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/** better-auth twoFactor plugin: one TOTP secret and the backup codes per user (both encrypted). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** False until the first code confirms the setup. */
    verified: boolean().default(true),
    /** Consecutive wrong sign-in codes; at the limit the account waits until `lockedUntil`. */
    failedVerificationCount: integer().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [index("two_factor_user_id_idx").on(t.userId), index("two_factor_secret_idx").on(t.secret)],
);

/** better-auth passkey plugin: WebAuthn credentials. */
export const passkey = pgTable(
  "passkey",
  {
    id: text().primaryKey(),
    name: text(),
    publicKey: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer().notNull(),
    deviceType: text().notNull(),
    backedUp: boolean().notNull(),
    transports: text(),
    createdAt: timestamp({ withTimezone: true }).defaultNow(),
    aaguid: text(),
    /** Registered with user verification (fingerprint, face, PIN): required to sign in (issue #28; rows from before: false). */
    userVerified: boolean().notNull().default(true),
  },
  (t) => [index("passkey_user_id_idx").on(t.userId), uniqueIndex("passkey_credential_id_unique").on(t.credentialID)],
);

// ---------------------------------------------------------------------------------------
// Client organisations (docs/product.md#organisations, migration 0029, ADR 022)
// ---------------------------------------------------------------------------------------

/**
 * A client organisation: the business that proposals, offers, agreements, invoices, payments,
 * meetings, conversations and files belong to. `name` is the spec's "business name".
 */
export const organisation = pgTable(
  "organisation",
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    address: text(),
    taxId: text(),
    website: text(),
    /** The ambassador who referred the organisation (attribution and commissions are per organisation). */
    referredById: text().references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("organisation_created_idx").on(t.createdAt, t.id),
    index("organisation_referred_by_idx").on(t.referredById),
    index("organisation_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    index("organisation_search_idx").using("gin", sql`to_tsvector('simple', ${t.name})`),
  ],
);

/** A person's membership of an organisation, with their role there (one row per person and organisation). */
export const membership = pgTable(
  "membership",
  {
    organisationId: integer()
      .notNull()
      .references(() => organisation.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text().$type<OrganisationRole>().notNull(),
    /** Who invited them (null: the organisation's creator, or an account since erased). */
    invitedById: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userId] }),
    index("membership_user_idx").on(t.userId, t.createdAt, t.organisationId),
    check("membership_role_valid", sql`${t.role} in ('owner', 'billing', 'member')`),
  ],
);

/**
 * An invitation to join an organisation with a role, sent by e-mail. Only the SHA-256 of its token
 * is kept; it can be used once, until `expiresAt` (7 days), unless revoked.
 */
export const invitation = pgTable(
  "invitation",
  {
    id: serial().primaryKey(),
    organisationId: integer()
      .notNull()
      .references(() => organisation.id, { onDelete: "cascade" }),
    /** The invited address, lowercased. */
    email: text().notNull(),
    role: text().$type<OrganisationRole>().notNull(),
    tokenHash: text().notNull(),
    invitedById: text().references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedById: text().references(() => user.id, { onDelete: "set null" }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("invitation_token_hash_unique").on(t.tokenHash),
    index("invitation_organisation_idx").on(t.organisationId, t.createdAt, t.id),
    // One open invitation per address and organisation.
    uniqueIndex("invitation_open_unique")
      .on(t.organisationId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check("invitation_role_valid", sql`${t.role} in ('owner', 'billing', 'member')`),
  ],
);

/**
 * A person's own settings for one conversation (docs/product.md#organisation-notifications):
 * `mutedAt` — no thread mails for them; `addedAt` — a billing person added to the thread by an
 * owner (billing people take part only then).
 */
export const conversationMember = pgTable(
  "conversation_member",
  {
    proposalId: integer()
      .notNull()
      .references((): AnyPgColumn => proposal.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    mutedAt: timestamp({ withTimezone: true }),
    addedAt: timestamp({ withTimezone: true }),
    addedById: text().references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] }), index("conversation_member_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------------------------------
// Portal data (docs/product.md#proposals, meetings, invoices, settings)
// ---------------------------------------------------------------------------------------

export const proposal = pgTable(
  "proposal",
  {
    id: serial().primaryKey(),
    /** The person who asked for it (or was addressed); null until the addressed client has an account. */
    clientId: text().references(() => user.id, { onDelete: "cascade" }),
    /**
     * The client organisation it belongs to (migration 0029): what decides who sees it. Null until
     * the addressed client has an account; when a writer leaves it null, the trigger
     * `proposal_default_organisation` takes the client's first organisation.
     */
    organisationId: integer().references(() => organisation.id, { onDelete: "restrict" }),
    clientName: text(),
    /** For ambassador proposals: the addressed e-mail, lowercased. */
    clientEmail: text(),
    ambassadorId: text().references(() => user.id, { onDelete: "set null" }),
    source: text().$type<"client" | "ambassador">().notNull(),
    projectName: text(),
    projectDetails: text().notNull(),
    timeline: text(),
    budgetCents: integer(),
    targetAudience: text(),
    designInspiration: text(),
    numberOfPages: integer(),
    websiteGoal: text().$type<WebsiteGoal>(),
    status: text().$type<ProposalStatus>().notNull(),
    revisionComment: text(),
    clientApprovedAt: timestamp({ withTimezone: true }),
    clientDeclinedAt: timestamp({ withTimezone: true }),
    declineReason: text(),
    /**
     * The commission rate (basis points) frozen when the client approved the proposal: every
     * commission entry of its payments uses it (docs/product.md#commissions-ledger, ADR 017).
     */
    commissionRateBps: integer(),
    /** The case study whose "Start a project like this" it came from (issue #40). */
    sourceCaseStudyId: integer().references((): AnyPgColumn => caseStudy.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Per-owner pages list newest first on (created_at, id): the owner's rows in order, no sort (issue #30).
    index("proposal_client_idx").on(t.clientId, t.createdAt, t.id),
    index("proposal_organisation_idx").on(t.organisationId, t.createdAt, t.id),
    index("proposal_client_email_idx").on(t.clientEmail),
    index("proposal_ambassador_idx").on(t.ambassadorId, t.createdAt, t.id),
    // Admin list: newest first, keyset-paginated on (created_at, id), by status.
    index("proposal_status_created_idx").on(t.status, t.createdAt, t.id),
    index("proposal_created_idx").on(t.createdAt, t.id),
    // #26b reminders: proposals waiting for the client (migration 0022).
    index("proposal_awaiting_client_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('awaiting_acceptance', 'submitted') and ${t.clientApprovedAt} is null and ${t.clientDeclinedAt} is null`),
    // Revision requests on the admin dashboard (migration 0023): in review with a comment.
    index("proposal_revision_requested_idx")
      .on(t.id)
      .where(sql`${t.status} = 'review' and ${t.revisionComment} <> ''`),
    // Admin search (ILIKE '%…%') with pg_trgm (see ADR 005).
    index("proposal_project_name_trgm_idx").using("gin", t.projectName.op("gin_trgm_ops")),
    index("proposal_client_name_trgm_idx").using("gin", t.clientName.op("gin_trgm_ops")),
    index("proposal_client_email_trgm_idx").using("gin", t.clientEmail.op("gin_trgm_ops")),
    // The admin's global search (issue #41): the same expression as SEARCH_VECTORS.proposal.
    index("proposal_search_idx").using(
      "gin",
      sql`to_tsvector('simple', coalesce(${t.projectName}, '') || ' ' || coalesce(${t.clientName}, '') || ' ' || coalesce(${t.clientEmail}, ''))`,
    ),
    check("proposal_budget_nonnegative", sql`${t.budgetCents} is null or ${t.budgetCents} >= 0`),
    check("proposal_commission_rate_range", sql`${t.commissionRateBps} is null or ${t.commissionRateBps} between 0 and 10000`),
  ],
);

export const meeting = pgTable(
  "meeting",
  {
    id: serial().primaryKey(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The instant the client picked (their date + time in their time zone), UTC. */
    startsAt: timestamp({ withTimezone: true }).notNull(),
    /** IANA time zone the client picked the time in, e.g. `America/New_York`. */
    timeZone: text().notNull(),
    notes: text(),
    status: text().$type<MeetingStatus>().notNull().default("pending"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Booking from availability (migration 0016, docs/product.md#availability). The exclusion
    // constraint `meeting_no_overlap` (hand-written in the migration) keeps two pending or accepted
    // meetings from holding overlapping [starts_at, blocked_until) ranges.
    /** The meeting's end (UTC): starts_at + the meeting length when booked. */
    endsAt: timestamp({ withTimezone: true }).notNull(),
    /** ends_at + the buffer in force when booked; null for meetings requested before availability existed. */
    blockedUntil: timestamp({ withTimezone: true }),
    /** iCalendar SEQUENCE of its invite, raised by every reschedule or cancellation. */
    sequence: integer().notNull().default(0),
    /** The project the meeting is about (optional). */
    proposalId: integer().references(() => proposal.id, { onDelete: "set null" }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The client organisation it belongs to (migration 0029); `userId` is the person who booked it. */
    organisationId: integer().references(() => organisation.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("meeting_organisation_idx").on(t.organisationId, t.startsAt),
    index("meeting_user_idx").on(t.userId, t.startsAt),
    index("meeting_created_idx").on(t.createdAt, t.id),
    // Admin's past meetings, newest first (migration 0025).
    index("meeting_starts_idx").on(t.startsAt, t.id),
    index("meeting_proposal_idx").on(t.proposalId),
    index("meeting_active_starts_idx")
      .on(t.startsAt)
      .where(sql`${t.status} in ('pending', 'accepted')`),
    check("meeting_blocked_after_end", sql`${t.blockedUntil} is null or ${t.blockedUntil} >= ${t.endsAt}`),
  ],
);

export const invoice = pgTable(
  "invoice",
  {
    id: serial().primaryKey(),
    /** Sequential number, e.g. INV-2026-0001. */
    number: text().notNull().unique(),
    /**
     * The proposal it bills, if any (#37): a proposal may have several invoices (deposit, milestones,
     * final payment) and an invoice may have none (recurring, stand-alone) — then its writer sets
     * `organisationId` (check `invoice_owner_known`).
     */
    proposalId: integer().references(() => proposal.id, { onDelete: "cascade" }),
    /** The person it was issued to; its signed link (/i/…) is signed for them. */
    clientId: text().references(() => user.id, { onDelete: "cascade" }),
    /**
     * The client organisation it belongs to (migration 0029): what decides who sees it. A writer
     * that leaves it null gets its proposal's (trigger `invoice_default_organisation`).
     */
    organisationId: integer().references(() => organisation.id, { onDelete: "restrict" }),
    /** Due date (a calendar date); overdue = unpaid and today (UTC) is after it. */
    dueDate: date({ mode: "string" }).notNull(),
    status: text().$type<"unpaid" | "paid">().notNull().default("unpaid"),
    totalCents: integer().notNull(),
    /**
     * Sum of the invoice's payments (positive rows; refunds not subtracted), in cents — kept by the
     * `payments_paid_*` triggers (migration 0023) in the transaction that writes a payment. Read it
     * where a sum over many invoices is needed; one invoice's money derives from `payments` (ADR 013).
     */
    paidCents: integer().notNull().default(0),
    paidAt: timestamp({ withTimezone: true }),
    /** Deposit asked for, in cents (docs/product.md#deposits); null = no deposit. */
    depositCents: integer(),
    /** Set when the card processor reports a dispute (chargeback) on one of its payments. */
    disputedAt: timestamp({ withTimezone: true }),
    /** Raised by one at every edit; a save carrying an older version is refused (docs/product.md#invoices). */
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("invoice_client_idx").on(t.clientId),
    index("invoice_organisation_idx").on(t.organisationId, t.createdAt, t.id),
    index("invoice_status_due_idx").on(t.status, t.dueDate),
    // Admin list: newest first, keyset-paginated on (created_at, id), by status.
    index("invoice_created_idx").on(t.createdAt, t.id),
    index("invoice_status_created_idx").on(t.status, t.createdAt, t.id),
    index("invoice_number_trgm_idx").using("gin", t.number.op("gin_trgm_ops")),
    check("invoice_total_nonnegative", sql`${t.totalCents} >= 0`),
    check("invoice_owner_known", sql`${t.proposalId} is not null or ${t.organisationId} is not null`),
  ],
);

export const invoiceItem = pgTable(
  "invoice_item",
  {
    id: serial().primaryKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoice.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    description: text().notNull(),
    amountCents: integer().notNull(),
  },
  (t) => [index("invoice_item_invoice_idx").on(t.invoiceId, t.position)],
);

/**
 * Invoice number counters, one row per calendar year (UTC). Generating an invoice increments
 * its year's row in the same transaction (`insert … on conflict do update … returning`), so
 * numbers are sequential, unique and gapless under concurrency.
 */
export const invoiceCounter = pgTable("invoice_counter", {
  year: integer().primaryKey(),
  lastNumber: integer().notNull(),
});

/** The one global settings row (docs/product.md#settings), id always 1. */
export const settings = pgTable(
  "settings",
  {
    id: integer().primaryKey().default(1),
    companyName: text().notNull().default(""),
    supportEmail: text().notNull().default(""),
    defaultTimeline: text().notNull().default(""),
    allowNewClients: boolean().notNull().default(true),
    /** Sign-in refused until the e-mail address is verified (docs/product.md#email-verification); off by default. */
    requireEmailVerification: boolean().notNull().default(false),
    /** Ambassador commission in basis points (1500 = 15 %). */
    commissionRateBps: integer().notNull().default(1500),
    currency: text().notNull().default("USD"),
    /** Admins must set up two-factor authentication before reaching /admin (docs/product.md#account-page). */
    requireAdminTwoFactor: boolean().notNull().default(false),
    /** Bill-from address on invoices (multi-line). */
    companyAddress: text().notNull().default(""),
    /** Optional tax / VAT id on invoices. */
    taxId: text().notNull().default(""),
    /** Free text on every invoice, e.g. bank details (multi-line). */
    paymentInstructions: text().notNull().default(""),
    /** An https URL with `{number}` and `{amount}` placeholders: the invoice page's "Pay now" link. */
    paymentLinkTemplate: text().notNull().default(""),
    /** Accent colour `#rrggbb` (white text on it passes 4.5:1), or "" for the default. */
    accentColor: text().notNull().default(""),
    /** The agency's IANA time zone (e.g. `Europe/Berlin`): its working hours, reminder and digest times. */
    timeZone: text().notNull().default("UTC"),
    // Availability (migration 0016, docs/product.md#availability): read in `timeZone`.
    /** Weekly hours: per weekday, zero or more `HH:MM` ranges (default Mon–Fri 09:00–17:00). */
    weeklyHours: jsonb().$type<WeeklyHours>().notNull().default(DEFAULT_WEEKLY_HOURS),
    /** Length of a booked meeting, 15–240 minutes. */
    meetingMinutes: integer().notNull().default(30),
    /** Free time kept after each meeting, 0–240 minutes. */
    meetingBufferMinutes: integer().notNull().default(0),
    /** The earliest slot offered is this many hours from now. */
    minNoticeHours: integer().notNull().default(24),
    /** Slots are offered up to this many days ahead. */
    bookingHorizonDays: integer().notNull().default(60),
    /** Dates off (`YYYY-MM-DD`, in the agency's zone): no slots. */
    datesOff: jsonb().$type<string[]>().notNull().default([]),
    /** Clients may reschedule or cancel until this many hours before the meeting. */
    changeCutoffHours: integer().notNull().default(12),
    /** Issue #41: a booking is confirmed at once (accepted) instead of waiting for the admin. */
    instantBooking: boolean().notNull().default(false),
    /** Issue #41: where meetings happen — an address, or a video link (https) — for the `.ics` LOCATION/URL and the mails; "" = none. */
    meetingLocation: text().notNull().default(""),
    /** Client registration asks for a phone number (docs/product.md#registration); off by default. */
    requireClientPhone: boolean().notNull().default(false),
    /** Days a commission entry stays Pending before it is payable: the refund window (docs/product.md#commissions-ledger). */
    commissionHoldDays: integer().notNull().default(30),
    /** #25a: deposit asked on new invoices, whole percent of the total (0 = none; docs/product.md#deposits). */
    defaultDepositPercent: integer().notNull().default(0),
    /** #26a: the agency's terms and conditions (multi-line, "" = none), part of every offer version made while set. */
    termsAndConditions: text().notNull().default(""),
    /** #39 dunning: an automatic payment that failed is tried again this many days after the first failure, sorted, 1–60. */
    dunningRetryDays: jsonb().$type<number[]>().notNull().default([1, 3, 7]),
    /** #39: months from a billing plan's start during which its paid invoices earn the referring ambassador commission (0–120). */
    recurringCommissionMonths: integer().notNull().default(12),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("settings_single_row", sql`${t.id} = 1`),
    check("settings_meeting_minutes_range", sql`${t.meetingMinutes} between 15 and 240`),
    check("settings_meeting_buffer_range", sql`${t.meetingBufferMinutes} between 0 and 240`),
    check("settings_min_notice_range", sql`${t.minNoticeHours} between 0 and 8760`),
    check("settings_booking_horizon_range", sql`${t.bookingHorizonDays} between 1 and 730`),
    check("settings_change_cutoff_range", sql`${t.changeCutoffHours} between 0 and 720`),
    check("settings_commission_hold_range", sql`${t.commissionHoldDays} between 0 and 365`),
    check("settings_deposit_percent_range", sql`${t.defaultDepositPercent} between 0 and 100`),
    check("settings_recurring_commission_months_range", sql`${t.recurringCommissionMonths} between 0 and 120`),
  ],
);

/**
 * The agency's logo (docs/product.md#settings): one row, id always 1, the validated file's
 * bytes (base64) and type. `version` (a content hash) names the served URL, so the file can
 * be cached for a year and a new upload gets a new URL.
 */
export const brandLogo = pgTable(
  "brand_logo",
  {
    id: integer().primaryKey().default(1),
    /** image/png | image/jpeg | image/svg+xml */
    contentType: text().notNull(),
    dataBase64: text().notNull(),
    version: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("brand_logo_single_row", sql`${t.id} = 1`)],
);

/** Audit trail of admin writes: who, what, when, before and after. */
export const auditEvent = pgTable(
  "audit_event",
  {
    id: serial().primaryKey(),
    actorId: text().references(() => user.id, { onDelete: "set null" }),
    actorEmail: text().notNull(),
    /** proposal | invoice | user | meeting | commission | settings */
    entity: text().notNull(),
    entityId: text().notNull(),
    /** e.g. status-changed, created, updated, deleted, marked-paid, deactivated */
    action: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    /**
     * The proposal the event is about (its timeline, docs/product.md#conversations): set for every
     * event of entity `proposal` and for invoice, meeting, version … events of one proposal. No
     * foreign key: the events of a deleted proposal stay in the trail.
     */
    proposalId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_event_entity_created_idx").on(t.entity, t.createdAt),
    index("audit_event_created_idx").on(t.createdAt),
    index("audit_event_proposal_idx")
      .on(t.proposalId, t.id)
      .where(sql`${t.proposalId} is not null`),
  ],
);

// ---------------------------------------------------------------------------------------
// Conversations and files (docs/product.md#conversations, docs/product.md#files, ADR 011)
// ---------------------------------------------------------------------------------------

/** Who wrote a message: the proposal's client, or someone of the agency (an admin). */
export type MessageAuthorRole = "client" | "agency";
/** `internal`: an admin's note, never shown to a client or an ambassador. */
export type MessageVisibility = "shared" | "internal";

/** One message of a proposal's conversation. Written only by `postMessage` (features/conversations). */
export const proposalMessage = pgTable(
  "proposal_message",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    /** Null once the author's account is deleted; `authorName` keeps their name at the time. */
    authorId: text().references(() => user.id, { onDelete: "set null" }),
    authorName: text().notNull(),
    authorRole: text().$type<MessageAuthorRole>().notNull(),
    /** Plain text, 1–10,000 characters after trimming; "" once deleted. */
    body: text().notNull(),
    visibility: text().$type<MessageVisibility>().notNull().default("shared"),
    via: text().$type<"web" | "email">().notNull().default("web"),
    /** The Message-ID of the e-mail it came from (replies by e-mail): posting the same mail twice is refused. */
    mailMessageId: text(),
    createdAt: createdAt(),
    editedAt: timestamp({ withTimezone: true }),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("proposal_message_thread_idx").on(t.proposalId, t.id),
    index("proposal_message_search_idx").using("gin", sql`to_tsvector('simple', ${t.body})`),
    // Unread counts: what an admin has not read (client messages), what a client has not read
    // (the agency's shared messages), each an index range per thread.
    index("proposal_message_unread_by_agency_idx")
      .on(t.proposalId, t.id)
      .where(sql`${t.authorRole} = 'client' and ${t.deletedAt} is null`),
    index("proposal_message_unread_by_client_idx")
      .on(t.proposalId, t.id)
      .where(sql`${t.authorRole} = 'agency' and ${t.visibility} = 'shared' and ${t.deletedAt} is null`),
    uniqueIndex("proposal_message_mail_message_id_unique").on(t.mailMessageId),
    check("proposal_message_author_role", sql`${t.authorRole} in ('client', 'agency')`),
    check("proposal_message_visibility", sql`${t.visibility} in ('shared', 'internal')`),
    check("proposal_message_via", sql`${t.via} in ('web', 'email')`),
    // Only the agency writes internal notes.
    check("proposal_message_note_by_agency", sql`${t.visibility} = 'shared' or ${t.authorRole} = 'agency'`),
  ],
);

/**
 * One row per proposal that has messages: its latest activity and the ids of its latest
 * messages per side, kept by `postMessage`. The inbox and the unread counts read it instead
 * of scanning messages.
 */
export const proposalThread = pgTable(
  "proposal_thread",
  {
    proposalId: integer()
      .primaryKey()
      .references(() => proposal.id, { onDelete: "cascade" }),
    lastActivityAt: timestamp({ withTimezone: true }).notNull(),
    lastMessageId: integer().notNull(),
    /** The latest message of the client (0: none). */
    lastClientMessageId: integer().notNull().default(0),
    /** The latest shared message of the agency (0: none). */
    lastAgencyMessageId: integer().notNull().default(0),
  },
  (t) => [index("proposal_thread_activity_idx").on(t.lastActivityAt, t.proposalId)],
);

/** Each participant's read position per conversation: every message up to this id is read. */
export const proposalRead = pgTable(
  "proposal_read",
  {
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    lastReadMessageId: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.proposalId] }), index("proposal_read_proposal_idx").on(t.proposalId)],
);

/**
 * The admin's inbox order (docs/product.md#conversations-inbox, issue #30): one row per (admin,
 * conversation), kept by the triggers of `drizzle/0024_inbox_sort.sql`. `inboxSort` is the
 * conversation's last activity, moved 1,000 years ahead while it has a client message after that
 * admin's read position (`inbox_sort_of`), so "unread first, then newest activity" is one index range.
 */
export const inboxEntry = pgTable(
  "inbox_entry",
  {
    proposalId: integer()
      .notNull()
      .references(() => proposalThread.proposalId, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    inboxSort: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.userId] }),
    index("inbox_entry_user_sort_idx").on(t.userId, t.inboxSort.desc().nullsFirst(), t.proposalId.desc().nullsFirst()),
  ],
);

/**
 * Message mails per conversation and recipient (docs/product.md#conversations-mail): at most one
 * mail per 10 minutes; messages posted meanwhile wait (`pendingFromMessageId`) until `dueAt`.
 */
export const messageMail = pgTable(
  "message_mail",
  {
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    lastSentAt: timestamp({ withTimezone: true }),
    /** The first message not mailed yet, or null when nothing waits. */
    pendingFromMessageId: integer(),
    /** When the waiting messages are mailed, or null when nothing waits. */
    dueAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.userId] }),
    index("message_mail_user_idx").on(t.userId),
    index("message_mail_due_idx")
      .on(t.dueAt)
      .where(sql`${t.dueAt} is not null`),
  ],
);

/**
 * A file shared in a conversation (docs/product.md#files): metadata here, bytes in the
 * configured `FileStore` under `storageKey`. `messageId` is null while the upload is pending
 * (before its message is written); pending rows older than an hour are swept.
 */
export const storedFile = pgTable(
  "file",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    messageId: integer().references(() => proposalMessage.id, { onDelete: "cascade" }),
    uploadedById: text().references(() => user.id, { onDelete: "set null" }),
    uploadedByName: text().notNull(),
    /** Sanitised display name (no path parts, control or bidi characters; ≤ 200 characters). */
    name: text().notNull(),
    /** Bytes. */
    size: bigint({ mode: "number" }).notNull().default(0),
    /** Detected from the content (never the browser's). */
    contentType: text().notNull(),
    /** Hex SHA-256 of the content ("" while pending). */
    sha256: text().notNull().default(""),
    storageKey: text().notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [
    index("file_proposal_idx").on(t.proposalId, t.id),
    index("file_message_idx").on(t.messageId),
    index("file_uploaded_by_idx").on(t.uploadedById),
    index("file_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.messageId} is null`),
  ],
);

/**
 * Storage keys whose bytes must be deleted from the `FileStore`: filled by a trigger when a
 * `file` row is deleted (directly or by a cascade from its message, proposal or client), emptied
 * by the sweeper once the store has deleted them — so no bytes outlive their row.
 */
export const fileGc = pgTable("file_gc", {
  storageKey: text().primaryKey(),
  queuedAt: createdAt(),
});

/** The database `FileStore`'s objects (ADR 011): one row per stored key, its bytes in chunks. */
export const fileObject = pgTable("file_object", {
  key: text().primaryKey(),
  /** Bytes written so far (the whole size once complete). */
  size: bigint({ mode: "number" }).notNull().default(0),
  createdAt: createdAt(),
});

/** The bytes of a `file_object`, in chunks of 256 KB numbered from 0. */
export const fileObjectChunk = pgTable(
  "file_object_chunk",
  {
    key: text()
      .notNull()
      .references(() => fileObject.key, { onDelete: "cascade" }),
    seq: integer().notNull(),
    data: bytea().notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * Live updates (docs/product.md#live-updates, migration 0018): one row per event a signed-in
 * browser may be told about, kept 24 hours. `id` is the stream's event id (`Last-Event-ID`);
 * `userIds` and `admins` name exactly who may receive it. The insert trigger sends
 * `pg_notify('portal_events', id)` on commit. One event per (transaction, kind, entity).
 */
export const liveEvent = pgTable(
  "live_event",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    createdAt: createdAt(),
    /** The writing transaction (`pg_current_xact_id()`), for the once-per-transaction index. */
    txId: bigint({ mode: "number" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
    /** e.g. `proposal.status-changed`, `meeting.requested` (app/features/live/live-kinds.ts). */
    kind: text().notNull(),
    entityId: text().notNull(),
    proposalId: integer(),
    /** Ids and labels the recipients may already load (status, project name) — never more. */
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Users who receive it (besides admins when `admins`). */
    userIds: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Every admin receives it. */
    admins: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex("live_event_once_per_tx").on(t.txId, t.kind, t.entityId), index("live_event_created_idx").on(t.createdAt)],
);

/**
 * E-mail replies by Message-ID (docs/product.md#email-replies): a delivery claims its Message-ID
 * before posting (a claim left unposted for 10 minutes may be taken again), so a message delivered
 * twice — even at the same time, through SMTP and the webhook — is posted once.
 */
export const inboundMail = pgTable(
  "inbound_mail",
  {
    messageId: text().primaryKey(),
    userId: text(),
    proposalId: integer(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The thread message it became (null while claimed). */
    postedMessageId: integer(),
  },
  (t) => [index("inbound_mail_received_idx").on(t.receivedAt)],
);

/**
 * "Download my data" (docs/product.md#download-my-data): one request per row. A small export is
 * built at once; a large one is built by the background worker, kept here as a ZIP and mailed as a
 * link (its token stored hashed) valid 24 hours, then purged.
 */
export const dataExport = pgTable(
  "data_export",
  {
    id: serial().primaryKey(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** pending → ready (or failed after the last attempt). */
    status: text().$type<"pending" | "ready" | "failed">().notNull().default("pending"),
    /** SHA-256 (hex) of the download link's token. */
    tokenHash: text().notNull(),
    archive: bytea(),
    sizeBytes: integer(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    requestedAt: createdAt(),
    readyAt: timestamp({ withTimezone: true }),
    /** The link works until then (24 hours after the archive is ready). */
    expiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("data_export_user_idx").on(t.userId, t.requestedAt),
    uniqueIndex("data_export_token_unique").on(t.tokenHash),
    index("data_export_pending_idx")
      .on(t.requestedAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

// #25a payments
/**
 * Payments on invoices (docs/product.md#payments, ADR 013): what was received (positive cents) or
 * refunded (negative cents, pointing at the payment it refunds). Paid, refunded, balance and the
 * invoice's status are derived from these rows (app/features/payments/).
 */
export const payments = pgTable(
  "payments",
  {
    id: serial().primaryKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoice.id, { onDelete: "cascade" }),
    /** Integer cents in the invoice's currency: positive for a payment, negative for a refund, never 0. */
    amountCents: integer().notNull(),
    currency: text().notNull(),
    method: text().$type<"card" | "bank_transfer" | "cash" | "other">().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    reference: text(),
    /** The admin who recorded it; null when the processor (Stripe webhook) recorded it. */
    recordedBy: text().references(() => user.id, { onDelete: "set null" }),
    /** For a refund: the payment it refunds. */
    refundOf: integer().references((): AnyPgColumn => payments.id),
    /** Stripe payment intent id of a card payment: one payment per intent. */
    processorPaymentIntent: text().unique(),
    /** Stripe event id that recorded this row. */
    processorEventId: text(),
    createdAt: timestamp({ withTimezone: true }).defaultNow(),
  },
  (t) => [
    index("payments_invoice_idx").on(t.invoiceId),
    // A payment's refunds (migration 0025).
    index("payments_refund_of_idx").on(t.refundOf),
    check("payments_amount_nonzero", sql`${t.amountCents} <> 0`),
    check("payments_method_check", sql`${t.method} in ('card','bank_transfer','cash','other')`),
  ],
);

/**
 * A card payment Stripe reports that is not applied to an invoice's balance (issue #36,
 * docs/product.md#card-payments): paid in another currency than Settings', paid when nothing was
 * due, or the part of a payment above the balance. Kept as it was paid (amount and currency as
 * Stripe reports them), flagged for the admins until one marks it resolved (refunded or applied by
 * hand); refunds Stripe reports for it are counted here, first, before the applied payment's.
 */
export const unappliedPayment = pgTable(
  "unapplied_payment",
  {
    id: serial().primaryKey(),
    invoiceId: integer().references(() => invoice.id, { onDelete: "set null" }),
    /** Integer cents in `currency` (as paid), > 0. */
    amountCents: integer().notNull(),
    /** ISO 4217 as Stripe reports it, upper case. */
    currency: text().notNull(),
    reason: text().$type<"other-currency" | "nothing-due" | "above-balance">().notNull(),
    /** One unapplied part per payment intent. */
    processorPaymentIntent: text().notNull().unique(),
    processorEventId: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    /** Refunded of it so far (Stripe's charge.refunded), in cents of `currency`. */
    refundedCents: integer().notNull().default(0),
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: text().references(() => user.id, { onDelete: "set null" }),
    resolution: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("unapplied_payment_open_idx")
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
    check("unapplied_payment_amount_positive", sql`${t.amountCents} > 0`),
    check("unapplied_payment_refunded_range", sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
    check("unapplied_payment_reason_check", sql`${t.reason} in ('other-currency','nothing-due','above-balance')`),
  ],
);

// #25b commission ledger
// ---------------------------------------------------------------------------------------
// Commission ledger and payouts (issue #25, migration 0021, docs/product.md#commissions-ledger, ADR 017)
// ---------------------------------------------------------------------------------------

/** One payout to an ambassador: the payable entries it took, paid together. */
export const payouts = pgTable(
  "payouts",
  {
    id: serial().primaryKey(),
    ambassadorId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** Sum of its entries, cents (> 0 for a payout made here; historical ones may be 0). */
    totalCents: integer().notNull(),
    currency: text().notNull(),
    /** The bank or PayPal reference the admin typed, e.g. "SEPA 2026-11-30". */
    reference: text().notNull(),
    method: text().$type<PayoutMethod>().notNull(),
    /** When the money was sent (UTC). */
    paidAt: timestamp({ withTimezone: true }).notNull(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payouts_ambassador_idx").on(t.ambassadorId, t.paidAt, t.id),
    index("payouts_paid_idx").on(t.paidAt, t.id),
    check("payouts_total_nonnegative", sql`${t.totalCents} >= 0`),
    check("payouts_method_valid", sql`${t.method} in ('bank_transfer', 'paypal', 'cash', 'other')`),
  ],
);

/**
 * The commission ledger: one entry per payment or refund on the invoice of a commissionable
 * proposal (+/- rate × amount, rounded half up per entry), plus one `historical` entry per
 * commission marked paid before the ledger existed. Entries are never updated except to be
 * taken into a payout (`payout_id`).
 */
export const commissionEntries = pgTable(
  "commission_entries",
  {
    id: serial().primaryKey(),
    ambassadorId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    proposalId: integer().references(() => proposal.id, { onDelete: "set null" }),
    invoiceId: integer().references(() => invoice.id, { onDelete: "set null" }),
    /** The payment or refund it is for: at most one entry per payment (null for historical entries). */
    paymentId: integer()
      .unique("commission_entries_payment_id_unique")
      .references(() => payments.id, { onDelete: "set null" }),
    kind: text().$type<CommissionEntryKind>().notNull(),
    /** The payment's amount (cents, negative for a refund); for a historical entry, the base it was paid on. */
    baseCents: integer().notNull(),
    /** The rate frozen when the proposal was approved (basis points). */
    rateBps: integer().notNull(),
    /** Signed commission in cents: round-half-up(rate × base), negative for a refund. */
    amountCents: integer().notNull(),
    currency: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** created_at + settings.commission_hold_days at creation: Pending before, Payable after. */
    payableAt: timestamp({ withTimezone: true }).notNull(),
    payoutId: integer().references(() => payouts.id),
  },
  (t) => [
    // The ambassador's ledger page, newest first.
    index("commission_entries_ambassador_idx").on(t.ambassadorId, t.createdAt, t.id),
    // Balances: the entries not paid out yet, per ambassador and by when they become payable.
    index("commission_entries_unpaid_idx")
      .on(t.ambassadorId, t.payableAt)
      .where(sql`${t.payoutId} is null`),
    index("commission_entries_open_payable_idx")
      .on(t.payableAt)
      .where(sql`${t.payoutId} is null`),
    index("commission_entries_payout_idx").on(t.payoutId),
    check("commission_entries_kind_valid", sql`${t.kind} in ('payment', 'refund', 'historical')`),
    check(
      "commission_entries_sign",
      sql`(${t.kind} = 'refund' and ${t.amountCents} <= 0) or (${t.kind} <> 'refund' and ${t.amountCents} >= 0)`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------
// #26a offers, versions, acceptances (docs/product.md#offers, migration 0015)
// ---------------------------------------------------------------------------------------

/** One line of an offer: quantity × unit price (cents). */
export interface OfferItem {
  description: string;
  quantity: number;
  unitPriceCents: number;
}

/** An offer's deposit: an amount in cents, or a whole percentage of the total. */
/** How much a line asks. `amount`: cents; `percent`: basis points of the total (3000 = 30 %); `rest`: an equal part of what is left. */
export type ScheduleShare = { kind: "amount"; value: number } | { kind: "percent"; value: number } | { kind: "rest" };

/**
 * When a line becomes an invoice. `signing`: at acceptance (the deposit); `date`: on that calendar
 * date (`YYYY-MM-DD`, agency time zone); `days_after_signing`: N days after acceptance; `milestone`:
 * when the admin marks the milestone reached.
 */
export type ScheduleDue =
  { kind: "signing" } | { kind: "date"; date: string } | { kind: "days_after_signing"; days: number } | { kind: "milestone" };

/** One line of an offer's schedule, as a version's terms hold it (after the deposit). */
export interface ScheduleLineTerms {
  label: string;
  share: ScheduleShare;
  due: ScheduleDue;
}

export interface OfferDeposit {
  kind: "amount" | "percent";
  value: number;
}

/**
 * The agency's working copy of a proposal's offer (one per proposal): what the admin saved on the offer
 * form. Never shown to the client — the client reads only the sent versions (`proposal_version`).
 */
export const proposalOffer = pgTable(
  "proposal_offer",
  {
    proposalId: integer()
      .primaryKey()
      .references(() => proposal.id, { onDelete: "cascade" }),
    projectName: text().notNull().default(""),
    scope: text().notNull().default(""),
    items: jsonb().$type<OfferItem[]>().notNull(),
    timeline: text().notNull().default(""),
    depositKind: text().$type<"amount" | "percent">(),
    depositValue: integer(),
    /**
     * The payment schedule after the deposit (#37, migration 0037): the milestones, then the final
     * payment (its share "the rest"); `[]` = no schedule (the deposit invoice bills the rest).
     */
    schedule: jsonb().$type<ScheduleLineTerms[]>().notNull().default([]),
    /** `YYYY-MM-DD`: the offer is valid until the end of that day. */
    validUntil: text(),
    updatedBy: text().references(() => user.id, { onDelete: "set null" }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("proposal_offer_deposit_kind", sql`${t.depositKind} is null or ${t.depositKind} in ('amount','percent')`),
    check("proposal_offer_deposit_pair", sql`(${t.depositKind} is null) = (${t.depositValue} is null)`),
  ],
);

/**
 * One line of an accepted offer's payment schedule (#37, docs/product.md#payment-schedule, ADR 026):
 * written when the offer is accepted (a later acceptance rewrites the lines not issued yet), and
 * turned into one invoice when it falls due — exactly once: `issuedAt` is set in the transaction
 * that issues the invoice, and the issuer claims the row `FOR UPDATE SKIP LOCKED`.
 */
export const paymentScheduleLine = pgTable(
  "payment_schedule_line",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    /** 0 = the deposit; then the version's order (the final payment last). */
    position: integer().notNull(),
    /** The accepted version this line comes from. */
    versionNumber: integer().notNull(),
    label: text().notNull(),
    amountCents: integer().notNull(),
    /** `signing` | `date` | `days_after_signing` | `milestone`. */
    dueKind: text().$type<"signing" | "date" | "days_after_signing" | "milestone">().notNull(),
    /** The calendar date it falls due (agency time zone); null for a milestone not reached yet. */
    dueOn: date({ mode: "string" }),
    /** When the admin marked the milestone reached (then `dueOn` is that day). */
    reachedAt: timestamp({ withTimezone: true }),
    reachedBy: text().references(() => user.id, { onDelete: "set null" }),
    /** Set once, when its invoice is issued. */
    issuedAt: timestamp({ withTimezone: true }),
    invoiceId: integer().references(() => invoice.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_schedule_line_position_unique").on(t.proposalId, t.position),
    index("payment_schedule_line_due_idx")
      .on(t.dueOn)
      .where(sql`${t.issuedAt} is null`),
    check("payment_schedule_line_amount_positive", sql`${t.amountCents} > 0`),
    check("payment_schedule_line_due_kind", sql`${t.dueKind} in ('signing','date','days_after_signing','milestone')`),
  ],
);

/**
 * Immutable numbered versions of a proposal's terms (docs/product.md#offer-versions). `terms` is the
 * canonical terms object; `sha256` the hex SHA-256 of its canonical JSON. Never updated nor deleted
 * (but with their proposal).
 */
export const proposalVersion = pgTable(
  "proposal_version",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    number: integer().notNull(),
    terms: jsonb().$type<Record<string, unknown>>().notNull(),
    sha256: text().notNull(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    /** The author's name when the version was made (kept when the account goes). */
    createdByName: text().notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("proposal_version_number_unique").on(t.proposalId, t.number),
    check("proposal_version_number_positive", sql`${t.number} > 0`),
  ],
);

/**
 * A client's typed-name acceptance of one version (docs/product.md#accept-and-sign), with its audit
 * trail and certificate id. Voided (never deleted) when a later version replaces the accepted one.
 */
export const proposalAcceptance = pgTable(
  "proposal_acceptance",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    versionId: integer()
      .notNull()
      .references(() => proposalVersion.id, { onDelete: "cascade" }),
    versionNumber: integer().notNull(),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    typedName: text().notNull(),
    /** The signer's account e-mail at acceptance. */
    email: text().notNull(),
    sha256: text().notNull(),
    acceptedAt: createdAt(),
    ip: text(),
    userAgent: text(),
    /** The signer's IANA time zone (their browser's, else the agency's) for the certificate. */
    timeZone: text().notNull().default("UTC"),
    /** Random, unguessable (128 bits, base64url): names the certificate and its /verify page. */
    certificateId: text().notNull(),
    voidedAt: timestamp({ withTimezone: true }),
    /** The version whose making voided this acceptance. */
    voidedByVersion: integer(),
    /**
     * The organisation the signer signed for, by name at that moment (migration 0029; the
     * certificate names it). Null for acceptances from before organisations.
     */
    organisationName: text(),
  },
  (t) => [
    uniqueIndex("proposal_acceptance_certificate_unique").on(t.certificateId),
    index("proposal_acceptance_proposal_idx").on(t.proposalId, t.acceptedAt),
  ],
);

// ---------------------------------------------------------------------------------------
// #26b reminders (docs/product.md#reminders, migration 0022, ADR 018)
// ---------------------------------------------------------------------------------------

/** What a reminder is about: an invoice, a proposal, a meeting, or the agency (the admin digest, record id 1). */
export type ReminderRecordKind = "invoice" | "proposal" | "meeting" | "agency";

/** The reminder settings (docs/product.md#reminders): one row, id always 1; read with defaults when missing. */
export const reminderSettings = pgTable(
  "reminder_settings",
  {
    id: integer().primaryKey().default(1),
    invoiceEnabled: boolean().notNull().default(true),
    /** Days relative to the due date (negative: before it), sorted, distinct, -60…365. */
    invoiceDays: jsonb().$type<number[]>().notNull().default([-3, 0, 7, 14]),
    proposalEnabled: boolean().notNull().default(true),
    /** Days after the proposal started waiting for the client, sorted, distinct, 1…365. */
    proposalDays: jsonb().$type<number[]>().notNull().default([3, 7]),
    /** 24 hours before an accepted meeting, to the client, with the .ics. */
    meetingEnabled: boolean().notNull().default(true),
    /** The admins' daily digest at 08:00 in settings.time_zone. */
    digestEnabled: boolean().notNull().default(true),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("reminder_settings_single_row", sql`${t.id} = 1`)],
);

/**
 * The reminder ledger: one row per (record, kind, step) the sweep (or "Send reminder now") handled,
 * `sent` (with its outbox mail) or `skipped` (an earlier step passed over after downtime, or an
 * empty digest). The unique index makes each (record, kind, step) happen at most once.
 */
export const remindersSent = pgTable(
  "reminders_sent",
  {
    id: serial().primaryKey(),
    recordKind: text().$type<ReminderRecordKind>().notNull(),
    recordId: integer().notNull(),
    /** `invoice-due` · `proposal-waiting` · `meeting-24h` · `admin-digest` · `manual`. */
    kind: text().notNull(),
    /** The step: days (`-3`, `0`, `7`), `24h`, the digest's agency-local date, or the manual send's instant. */
    step: text().notNull(),
    status: text().$type<"sent" | "skipped">().notNull(),
    /** When the step was due (UTC). */
    dueAt: timestamp({ withTimezone: true }),
    /** When the sweep (or the admin) handled it, from the injectable clock (UTC). */
    sentAt: timestamp({ withTimezone: true }).notNull(),
    /** The outbox mail (no foreign key: sent mails are purged after OUTBOX_RETENTION_DAYS). */
    outboxId: integer(),
    /** The admin who pressed "Send reminder now" (null for the sweep). */
    sentById: text().references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("reminders_sent_once").on(t.recordKind, t.recordId, t.kind, t.step),
    check("reminders_sent_record_kind", sql`${t.recordKind} in ('invoice', 'proposal', 'meeting', 'agency')`),
    check("reminders_sent_status", sql`${t.status} in ('sent', 'skipped')`),
  ],
);

/** The sweep's watermark (one row, id 1): every moment up to `sweptUntil` has been handled. */
export const reminderSweep = pgTable(
  "reminder_sweep",
  {
    id: integer().primaryKey().default(1),
    sweptUntil: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [check("reminder_sweep_single_row", sql`${t.id} = 1`)],
);

// ---------------------------------------------------------------------------------------
// Portfolio (issue #40, docs/product.md#portfolio): case studies edited in the admin, their
// screenshots, and testimonials from the clients of delivered projects.
// ---------------------------------------------------------------------------------------

/** A screenshot of a case study (`images` of {@link CaseStudyContent}): one seeded static file, or uploaded variants. */
export interface CaseStudyImageRef {
  /** An uploaded screenshot (`case_study_image.id`), served at `/portfolio/images/<id>/<width>.webp`. */
  imageId?: number;
  /** A static screenshot in `public/screenshots/` (the four seeded case studies). */
  file?: string;
  /** Required alt text. */
  alt: string;
  width: number;
  height: number;
}

/** What the admin edits, and what a published case study shows (a draft and a published copy of it). */
export interface CaseStudyContent {
  title: string;
  /** `/<slug>` on the site: lowercase letters, digits and hyphens. */
  slug: string;
  /** One or two sentences: the cards and the page's header. */
  summary: string;
  /** Markdown, shown under the header (may be empty). */
  description: string;
  role: string;
  timeline: string;
  outcome: string;
  /** `#rrggbb`: the summary box's accent and the Open Graph image. */
  color: string;
  /** Markdown. */
  problem: string;
  /** Markdown. */
  solution: string;
  features: string[];
  tech: string[];
  /** Markdown. */
  impact: string;
  github: string | null;
  live: string | null;
  images: CaseStudyImageRef[];
}

/**
 * A case study (docs/product.md#portfolio). `draft` is what the admin edits; `published` is what
 * the site shows (null while unpublished) — publishing copies the draft over it. `slug` is the
 * published slug (unique, the page's URL). Order and featuring apply at once.
 */
export const caseStudy = pgTable(
  "case_study",
  {
    id: serial().primaryKey(),
    slug: text(),
    draft: jsonb().$type<CaseStudyContent>().notNull(),
    published: jsonb().$type<CaseStudyContent>(),
    publishedAt: timestamp({ withTimezone: true }),
    /** The order on /projects (ascending). */
    position: integer().notNull(),
    /** The order among the home page's Featured Projects; null: not featured. */
    featuredPosition: integer(),
    /** The delivered project it was drafted from ("Make a case study draft"). */
    sourceProposalId: integer().references(() => proposal.id, { onDelete: "set null" }),
    /** The Open Graph image (PNG, 1200 × 630) made at publish. */
    ogImage: bytea(),
    draftUpdatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("case_study_slug_unique").on(t.slug), index("case_study_position_idx").on(t.position, t.id)],
);

/** An uploaded screenshot: its variants (640 and 1280 px wide WebP, a 1280 px JPEG) in the file store under `<storageKey>/…`. */
export const caseStudyImage = pgTable("case_study_image", {
  id: serial().primaryKey(),
  caseStudyId: integer()
    .notNull()
    .references(() => caseStudy.id, { onDelete: "cascade" }),
  storageKey: text().notNull().unique(),
  width: integer().notNull(),
  height: integer().notNull(),
  createdAt: createdAt(),
});

/** Consent for a testimonial: name and company, first name only, or not published. */
export const TESTIMONIAL_CONSENTS = ["name", "first_name", "none"] as const;
export type TestimonialConsent = (typeof TESTIMONIAL_CONSENTS)[number];

/**
 * A client's testimonial on a completed project (docs/product.md#testimonials): asked once per
 * proposal when it is marked completed (a row with no text yet), written by the organisation's
 * owner, shown on the site only once approved, with consent to publish and not withdrawn.
 * A change by the client takes the approval back.
 */
export const testimonial = pgTable(
  "testimonial",
  {
    id: serial().primaryKey(),
    proposalId: integer()
      .notNull()
      .references(() => proposal.id, { onDelete: "cascade" }),
    organisationId: integer()
      .notNull()
      .references(() => organisation.id, { onDelete: "cascade" }),
    /** The case study it shows on (chosen at approval); null: home page only. */
    caseStudyId: integer().references(() => caseStudy.id, { onDelete: "set null" }),
    authorId: text().references(() => user.id, { onDelete: "set null" }),
    /** The author's name when they wrote it (the site shows it, or its first word, as consented). */
    authorName: text(),
    text: text(),
    /** 1–5. */
    rating: integer(),
    consent: text().$type<TestimonialConsent>(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp({ withTimezone: true }),
    approvedAt: timestamp({ withTimezone: true }),
    withdrawnAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("testimonial_proposal_unique").on(t.proposalId),
    index("testimonial_organisation_idx").on(t.organisationId),
    index("testimonial_shown_idx")
      .on(t.approvedAt)
      .where(sql`${t.approvedAt} is not null and ${t.withdrawnAt} is null and ${t.consent} in ('name', 'first_name')`),
    check("testimonial_rating_range", sql`${t.rating} is null or ${t.rating} between 1 and 5`),
    check("testimonial_consent", sql`${t.consent} is null or ${t.consent} in ('name', 'first_name', 'none')`),
  ],
);

// ---------------------------------------------------------------------------------------
// #39 recurring billing (docs/product.md#recurring-billing, ADR 025)
// ---------------------------------------------------------------------------------------

/** One line of a billing plan: what every cycle's invoice bills (cents, > 0). */
export interface BillingPlanItem {
  description: string;
  amountCents: number;
}

/**
 * A recurring billing plan (a retainer) of a client organisation: its line items are invoiced on
 * every cycle date of its calendar (`app/features/billing/plan-dates.ts`), in the agency's zone.
 * `nextCycleIndex` / `nextCycleOn` are the first cycle not issued yet (null date: the plan has
 * ended); the issuing job advances them in the transaction that writes the cycle's row.
 */
export const billingPlan = pgTable(
  "billing_plan",
  {
    id: serial().primaryKey(),
    organisationId: integer()
      .notNull()
      .references(() => organisation.id, { onDelete: "restrict" }),
    /** What the client sees it as, e.g. "Hosting and maintenance". */
    name: text().notNull(),
    items: jsonb().$type<BillingPlanItem[]>().notNull(),
    /** Sum of the items (cents), kept with them. */
    totalCents: integer().notNull(),
    frequency: text().$type<"weekly" | "monthly" | "quarterly" | "yearly">().notNull(),
    startDate: date({ mode: "string" }).notNull(),
    /** 1–31 for monthly/quarterly/yearly (the month's last day when shorter); null: the start date's day. */
    dayOfMonth: integer(),
    endDate: date({ mode: "string" }),
    maxCycles: integer(),
    /** Each cycle's invoice is due this many days after its date. */
    dueDays: integer().notNull(),
    /** Charge the organisation's saved card when a cycle's invoice is issued. */
    autopay: boolean().notNull().default(false),
    status: text().$type<"active" | "paused" | "cancelled">().notNull().default("active"),
    nextCycleIndex: integer().notNull().default(0),
    /** The date of the first cycle not issued yet; null when the plan has ended or is cancelled. */
    nextCycleOn: date({ mode: "string" }),
    /** The ambassador who referred the organisation when the plan was made (earns on its invoices, #39). */
    ambassadorId: text().references(() => user.id, { onDelete: "set null" }),
    /** The commission rate frozen at creation (basis points) and until when its invoices earn (`YYYY-MM-DD`, exclusive). */
    commissionRateBps: integer(),
    commissionUntil: date({ mode: "string" }),
    createdById: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("billing_plan_organisation_idx").on(t.organisationId, t.createdAt, t.id),
    index("billing_plan_created_idx").on(t.createdAt, t.id),
    // The issuing job: active plans with a cycle due.
    index("billing_plan_due_idx")
      .on(t.nextCycleOn)
      .where(sql`${t.status} = 'active'`),
    check("billing_plan_frequency_valid", sql`${t.frequency} in ('weekly', 'monthly', 'quarterly', 'yearly')`),
    check("billing_plan_status_valid", sql`${t.status} in ('active', 'paused', 'cancelled')`),
    check("billing_plan_day_range", sql`${t.dayOfMonth} is null or ${t.dayOfMonth} between 1 and 31`),
    check("billing_plan_due_days_range", sql`${t.dueDays} between 0 and 365`),
    check("billing_plan_max_cycles_range", sql`${t.maxCycles} is null or ${t.maxCycles} >= 1`),
    check("billing_plan_total_positive", sql`${t.totalCents} > 0`),
    check("billing_plan_end_after_start", sql`${t.endDate} is null or ${t.endDate} >= ${t.startDate}`),
  ],
);

/**
 * One issued cycle of a plan: the unique (plan, cycle date) row is what makes "each cycle is
 * invoiced exactly once" true across processes, retries and downtime (ADR 025).
 */
export const billingCycle = pgTable(
  "billing_cycle",
  {
    id: serial().primaryKey(),
    planId: integer()
      .notNull()
      .references(() => billingPlan.id, { onDelete: "cascade" }),
    cycleIndex: integer().notNull(),
    /** The cycle's billing date (agency calendar). */
    cycleOn: date({ mode: "string" }).notNull(),
    /** The invoice issued for it (null once that invoice is deleted). */
    invoiceId: integer().references(() => invoice.id, { onDelete: "set null" }),
    /** The plan charged the saved card for it. */
    autopay: boolean().notNull().default(false),
    issuedAt: createdAt(),
  },
  (t) => [
    uniqueIndex("billing_cycle_plan_date_unique").on(t.planId, t.cycleOn),
    uniqueIndex("billing_cycle_plan_index_unique").on(t.planId, t.cycleIndex),
    uniqueIndex("billing_cycle_invoice_unique").on(t.invoiceId),
  ],
);

// ---------------------------------------------------------------------------------------
// #39 saved cards, automatic payment and dunning (docs/product.md#recurring-billing, ADR 025)
// ---------------------------------------------------------------------------------------

/**
 * The Stripe customer of a client organisation (made the first time someone of it saves a card,
 * with an idempotency key per organisation, so two people saving at once get one customer).
 */
export const stripeCustomer = pgTable("stripe_customer", {
  organisationId: integer()
    .primaryKey()
    .references(() => organisation.id, { onDelete: "cascade" }),
  customerId: text().notNull().unique("stripe_customer_customer_unique"),
  createdAt: createdAt(),
});

/**
 * An organisation's saved card: nothing card-like but what Stripe answers for display — the
 * payment method's id, brand, last 4 digits and expiry. One per organisation; saving another
 * replaces it. `setupCreated` is when the SetupIntent that saved it was made (Stripe's clock): a
 * late webhook of an older setup never replaces a newer card.
 */
export const savedCard = pgTable(
  "saved_card",
  {
    organisationId: integer()
      .primaryKey()
      .references(() => organisation.id, { onDelete: "cascade" }),
    customerId: text().notNull(),
    paymentMethodId: text().notNull(),
    setupIntentId: text().notNull(),
    setupCreated: timestamp({ withTimezone: true }).notNull(),
    brand: text().notNull(),
    last4: text().notNull(),
    expMonth: integer().notNull(),
    expYear: integer().notNull(),
    savedById: text().references(() => user.id, { onDelete: "set null" }),
    savedAt: createdAt(),
    /** The "your card expires before the next charge" mail was sent for this card (once). */
    expiryNoticeSentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("saved_card_last4", sql`${t.last4} ~ '^[0-9]{4}$'`),
    check("saved_card_exp_month", sql`${t.expMonth} between 1 and 12`),
    check("saved_card_exp_year", sql`${t.expYear} between 2000 and 2200`),
  ],
);

/** Where an invoice's automatic payment stands. */
export type AutopayState = "queued" | "charging" | "succeeded" | "retry_scheduled" | "stopped" | "no_card" | "settled";

/**
 * The automatic payment of one issued invoice (a plan that charges automatically): the charges
 * made (`attempts`; each is one off-session PaymentIntent with the idempotency key
 * `autopay-invoice-<id>-<attempt>`), the failures handled (`failures`: a failure event of charge n
 * is applied only while `failures < n`, so a repeated event does nothing), and the dunning retry.
 */
export const invoiceAutopay = pgTable(
  "invoice_autopay",
  {
    invoiceId: integer()
      .primaryKey()
      .references(() => invoice.id, { onDelete: "cascade" }),
    organisationId: integer()
      .notNull()
      .references(() => organisation.id, { onDelete: "cascade" }),
    planId: integer().references(() => billingPlan.id, { onDelete: "set null" }),
    state: text().$type<AutopayState>().notNull().default("queued"),
    attempts: integer().notNull().default(0),
    failures: integer().notNull().default(0),
    firstFailedAt: timestamp({ withTimezone: true }),
    nextRetryAt: timestamp({ withTimezone: true }),
    lastPaymentIntentId: text(),
    /** "requires_action", or the bank's decline message. */
    lastFailure: text(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("invoice_autopay_retry_idx")
      .on(t.nextRetryAt)
      .where(sql`${t.state} = 'retry_scheduled'`),
    check(
      "invoice_autopay_state_valid",
      sql`${t.state} in ('queued', 'charging', 'succeeded', 'retry_scheduled', 'stopped', 'no_card', 'settled')`,
    ),
  ],
);
