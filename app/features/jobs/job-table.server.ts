/**
 * pg-boss's job table (`pgboss.job`, created by migration 0026) as Drizzle reads it: for the
 * admin's list of failed jobs and the outbox's next attempts. Written only through pg-boss
 * (`enqueueJob`, the runner) — never by hand. Not part of `app/db/schema.ts`: drizzle-kit does not
 * manage pg-boss's schema.
 */
import { integer, jsonb, pgSchema, text, timestamp, uuid } from "drizzle-orm/pg-core";

const pgboss = pgSchema("pgboss");

/** One job; `state` is pg-boss's `job_state`: created, retry, active, completed, cancelled, failed. */
export const job = pgboss.table("job", {
  id: uuid().notNull(),
  name: text().notNull(),
  data: jsonb().$type<Record<string, unknown>>(),
  state: text().$type<"created" | "retry" | "active" | "completed" | "cancelled" | "failed">().notNull(),
  retryLimit: integer().notNull(),
  retryCount: integer().notNull(),
  startAfter: timestamp({ withTimezone: true }).notNull(),
  startedOn: timestamp({ withTimezone: true }),
  completedOn: timestamp({ withTimezone: true }),
  createdOn: timestamp({ withTimezone: true }).notNull(),
  /** On failure: the error, serialised by pg-boss (`{ message, stack, … }`). */
  output: jsonb().$type<{ message?: string; value?: { message?: string } } | null>(),
});
