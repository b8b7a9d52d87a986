/**
 * Drizzle schema: the relational form of spec §3 (see docs/design). Column names are
 * snake_case in SQL (drizzle `casing: "snake_case"`), camelCase in TypeScript.
 * Timestamps are `timestamptz` (UTC); money is integer cents.
 */
import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** Spec §3 "Contact message": stored before the owner's e-mail is queued (issue #2). */
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
  },
  (t) => [index().on(t.createdAt)],
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
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker holds the row; another worker skips it until this passes. */
    lockedUntil: timestamp({ withTimezone: true }),
    sentAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_pending_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null`)],
);

/** Fixed-window rate-limit counters shared by every app instance (contact form, …). */
export const rateLimit = pgTable(
  "rate_limit",
  {
    key: text().primaryKey(),
    count: integer().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
  },
);
