ALTER TABLE "mail_outbox" ADD COLUMN "lease_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "job_id" uuid;--> statement-breakpoint
-- ADR 019: the job queue (pg-boss 10.4.2, schema version 24), created here rather than by pg-boss at
-- start (pg-boss runs with migrate: false), so jobs can be enqueued in any migrated database, tests' included.
-- The statements below are PgBoss.getConstructionPlans('pgboss') without its BEGIN/advisory lock/COMMIT
-- wrapper (drizzle's migrator already runs each migration in one transaction under its own lock).
CREATE SCHEMA IF NOT EXISTS pgboss;
--> statement-breakpoint
CREATE TYPE pgboss.job_state AS ENUM (
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed'
    );
--> statement-breakpoint
CREATE TABLE pgboss.version (
      version int primary key,
      maintained_on timestamp with time zone,
      cron_on timestamp with time zone,
      monitored_on timestamp with time zone
    );
--> statement-breakpoint
CREATE TABLE pgboss.queue (
      name text,
      policy text,
      retry_limit int,
      retry_delay int,
      retry_backoff bool,
      expire_seconds int,
      retention_minutes int,
      dead_letter text REFERENCES pgboss.queue (name),
      partition_name text,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    );
--> statement-breakpoint
CREATE TABLE pgboss.schedule (
      name text REFERENCES pgboss.queue ON DELETE CASCADE,
      cron text not null,
      timezone text,
      data jsonb,
      options jsonb,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    );
--> statement-breakpoint
CREATE TABLE pgboss.subscription (
      event text not null,
      name text not null REFERENCES pgboss.queue ON DELETE CASCADE,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY(event, name)
    );
--> statement-breakpoint
CREATE TABLE pgboss.job (
      id uuid not null default gen_random_uuid(),
      name text not null,
      priority integer not null default(0),
      data jsonb,
      state pgboss.job_state not null default('created'),
      retry_limit integer not null default(2),
      retry_count integer not null default(0),
      retry_delay integer not null default(0),
      retry_backoff boolean not null default false,
      start_after timestamp with time zone not null default now(),
      started_on timestamp with time zone,
      singleton_key text,
      singleton_on timestamp without time zone,
      expire_in interval not null default interval '15 minutes',
      created_on timestamp with time zone not null default now(),
      completed_on timestamp with time zone,
      keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
      output jsonb,
      dead_letter text,
      policy text
    ) PARTITION BY LIST (name);
--> statement-breakpoint
ALTER TABLE pgboss.job ADD PRIMARY KEY (name, id);
--> statement-breakpoint
CREATE TABLE pgboss.archive (LIKE pgboss.job);
--> statement-breakpoint
ALTER TABLE pgboss.archive ADD PRIMARY KEY (name, id);
--> statement-breakpoint
ALTER TABLE pgboss.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
--> statement-breakpoint
CREATE INDEX archive_i1 ON pgboss.archive(archived_on);
--> statement-breakpoint
CREATE FUNCTION pgboss.create_queue(queue_name text, options json)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
      queue_created_on timestamptz;
    BEGIN

      WITH q as (
      INSERT INTO pgboss.queue (
        name,
        policy,
        retry_limit,
        retry_delay,
        retry_backoff,
        expire_seconds,
        retention_minutes,
        dead_letter,
        partition_name
      )
      VALUES (
        queue_name,
        options->>'policy',
        (options->>'retryLimit')::int,
        (options->>'retryDelay')::int,
        (options->>'retryBackoff')::bool,
        (options->>'expireInSeconds')::int,
        (options->>'retentionMinutes')::int,
        options->>'deadLetter',
        table_name
      )
      ON CONFLICT DO NOTHING
      RETURNING created_on
      )
      SELECT created_on into queue_created_on from q;

      IF queue_created_on IS NULL THEN
        RETURN;
      END IF;

      EXECUTE format('CREATE TABLE pgboss.%I (LIKE pgboss.job INCLUDING DEFAULTS)', table_name);

      EXECUTE format('ALTER TABLE pgboss.%1$I ADD PRIMARY KEY (name, id)', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON pgboss.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON pgboss.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
      EXECUTE format('CREATE INDEX %1$s_i5 ON pgboss.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

      EXECUTE format('ALTER TABLE pgboss.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
      EXECUTE format('ALTER TABLE pgboss.job ATTACH PARTITION pgboss.%I FOR VALUES IN (%L)', table_name, queue_name);
    END;
    $$
    LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION pgboss.delete_queue(queue_name text)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar;
    BEGIN
      WITH deleted as (
        DELETE FROM pgboss.queue
        WHERE name = queue_name
        RETURNING partition_name
      )
      SELECT partition_name from deleted INTO table_name;

      EXECUTE format('DROP TABLE IF EXISTS pgboss.%I', table_name);
    END;
    $$
    LANGUAGE plpgsql;
--> statement-breakpoint
INSERT INTO pgboss.version(version) VALUES ('24');
--> statement-breakpoint
-- pg-boss 10 fetches the next job "order by priority desc, created_on, id" with only (name, start_after)
-- indexed: every fetch sorted every waiting job of the queue (7 ms per fetch at 10,000 waiting mails).
-- This index (inherited by every queue's partition, present and future) hands them over in that order.
CREATE INDEX job_fetch_order ON pgboss.job (name, priority DESC, created_on, id) WHERE state < 'active';--> statement-breakpoint
-- The queues (app/features/jobs/queues.ts); their retry and expiry options are set at each start (updateQueue).
-- A dead-letter queue receives a job's data when its last attempt failed (the mail and the export are then marked failed).
SELECT pgboss.create_queue('__pgboss__send-it', '{}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('mail-failed', '{"policy":"standard"}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('mail', '{"policy":"standard","deadLetter":"mail-failed","retryLimit":9,"retryDelay":90,"retryBackoff":true,"expireInSeconds":300}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('data-export-failed', '{"policy":"standard"}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('data-export', '{"policy":"standard","deadLetter":"data-export-failed","retryLimit":2,"retryDelay":60,"retryBackoff":true,"expireInSeconds":900}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('reminders', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('conversations', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('tally-fold', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('purge', '{"policy":"singleton","retryLimit":0,"expireInSeconds":600}'::json);--> statement-breakpoint
-- Mails and exports waiting when this migration runs become one job each (the outbox and export loops are gone).
WITH pending AS (
  SELECT id, gen_random_uuid() AS job_id, next_attempt_at FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL
), jobs AS (
  INSERT INTO pgboss.job (id, name, data, start_after, retry_limit, retry_delay, retry_backoff, expire_in, dead_letter, keep_until, policy)
  SELECT job_id, 'mail', jsonb_build_object('mailId', id), next_attempt_at, 9, 90, true, interval '300 seconds', 'mail-failed', next_attempt_at + interval '30 days', 'standard'
  FROM pending
)
UPDATE mail_outbox m SET job_id = p.job_id, locked_until = NULL FROM pending p WHERE m.id = p.id;--> statement-breakpoint
INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, dead_letter, keep_until, policy)
SELECT 'data-export', jsonb_build_object('exportId', id), 2, 60, true, interval '900 seconds', 'data-export-failed', now() + interval '14 days', 'standard'
FROM data_export WHERE status = 'pending';
