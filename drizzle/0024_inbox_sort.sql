-- Issue #30: the admin's conversation inbox (docs/product.md#conversations-inbox) without a sort of
-- every conversation per request. "inbox_entry" keeps one row per (admin, conversation) with the
-- inbox's sort key: the conversation's last activity, moved 1,000 years ahead while it has a
-- client message after that admin's read position. The first page is then an index range on
-- (user_id, inbox_sort desc, proposal_id desc); the unfiltered total comes from a tally bucket.
-- Statement-level triggers with transition tables keep both set-based (the demo seed inserts
-- threads by the thousand):
--   proposal_thread inserted        → rows for every admin (and the "conversation" tally);
--   proposal_thread updated         → its rows recomputed for every admin;
--   proposal_read written / deleted → that (admin, conversation) row recomputed;
--   "user" inserted / made admin    → rows for every conversation; no longer admin → rows deleted.
-- Deleting a conversation, a proposal or a user cascades through the foreign keys.
CREATE FUNCTION inbox_sort_of(last_activity_at timestamptz, last_client_message_id integer, last_read_message_id integer)
  RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN last_client_message_id > coalesce(last_read_message_id, 0)
    THEN last_activity_at + interval '1000 years' ELSE last_activity_at END
$$;
--> statement-breakpoint
CREATE TABLE "inbox_entry" (
	"proposal_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"inbox_sort" timestamp with time zone NOT NULL,
	CONSTRAINT "inbox_entry_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "inbox_entry" ADD CONSTRAINT "inbox_entry_proposal_id_proposal_thread_proposal_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposal_thread"("proposal_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_entry" ADD CONSTRAINT "inbox_entry_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_entry_user_sort_idx" ON "inbox_entry" USING btree ("user_id","inbox_sort" DESC,"proposal_id" DESC);
--> statement-breakpoint
CREATE FUNCTION inbox_thread_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO inbox_entry (proposal_id, user_id, inbox_sort)
    SELECT n.proposal_id, a.id, inbox_sort_of(n.last_activity_at, n.last_client_message_id, r.last_read_message_id)
    FROM new_rows n
    CROSS JOIN "user" a
    LEFT JOIN proposal_read r ON r.user_id = a.id AND r.proposal_id = n.proposal_id
    WHERE a.role = 'admin'
  ON CONFLICT (proposal_id, user_id) DO UPDATE SET inbox_sort = excluded.inbox_sort;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION inbox_thread_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inbox_entry i
    SET inbox_sort = s.inbox_sort
    FROM (
      SELECT e.proposal_id, e.user_id, inbox_sort_of(n.last_activity_at, n.last_client_message_id, r.last_read_message_id) AS inbox_sort
      FROM new_rows n
      JOIN inbox_entry e ON e.proposal_id = n.proposal_id
      LEFT JOIN proposal_read r ON r.user_id = e.user_id AND r.proposal_id = e.proposal_id
    ) s
    WHERE i.proposal_id = s.proposal_id AND i.user_id = s.user_id AND i.inbox_sort <> s.inbox_sort;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION inbox_read_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE inbox_entry i
      SET inbox_sort = inbox_sort_of(t.last_activity_at, t.last_client_message_id, NULL)
      FROM old_rows o JOIN proposal_thread t ON t.proposal_id = o.proposal_id
      WHERE i.proposal_id = o.proposal_id AND i.user_id = o.user_id
        AND i.inbox_sort <> inbox_sort_of(t.last_activity_at, t.last_client_message_id, NULL);
  ELSE
    UPDATE inbox_entry i
      SET inbox_sort = inbox_sort_of(t.last_activity_at, t.last_client_message_id, n.last_read_message_id)
      FROM new_rows n JOIN proposal_thread t ON t.proposal_id = n.proposal_id
      WHERE i.proposal_id = n.proposal_id AND i.user_id = n.user_id
        AND i.inbox_sort <> inbox_sort_of(t.last_activity_at, t.last_client_message_id, n.last_read_message_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION inbox_admins_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM inbox_entry i
      USING new_rows n JOIN old_rows o ON o.id = n.id
      WHERE i.user_id = n.id AND o.role = 'admin' AND n.role IS DISTINCT FROM 'admin';
    INSERT INTO inbox_entry (proposal_id, user_id, inbox_sort)
      SELECT t.proposal_id, n.id, inbox_sort_of(t.last_activity_at, t.last_client_message_id, r.last_read_message_id)
      FROM new_rows n
      JOIN old_rows o ON o.id = n.id
      CROSS JOIN proposal_thread t
      LEFT JOIN proposal_read r ON r.user_id = n.id AND r.proposal_id = t.proposal_id
      WHERE n.role = 'admin' AND o.role IS DISTINCT FROM 'admin'
    ON CONFLICT (proposal_id, user_id) DO UPDATE SET inbox_sort = excluded.inbox_sort;
  ELSE
    INSERT INTO inbox_entry (proposal_id, user_id, inbox_sort)
      SELECT t.proposal_id, n.id, inbox_sort_of(t.last_activity_at, t.last_client_message_id, r.last_read_message_id)
      FROM new_rows n
      CROSS JOIN proposal_thread t
      LEFT JOIN proposal_read r ON r.user_id = n.id AND r.proposal_id = t.proposal_id
      WHERE n.role = 'admin'
    ON CONFLICT (proposal_id, user_id) DO UPDATE SET inbox_sort = excluded.inbox_sort;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER proposal_thread_inbox_insert AFTER INSERT ON proposal_thread REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_thread_inserted();
--> statement-breakpoint
CREATE TRIGGER proposal_thread_inbox_update AFTER UPDATE ON proposal_thread REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_thread_updated();
--> statement-breakpoint
CREATE TRIGGER proposal_read_inbox_insert AFTER INSERT ON proposal_read REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_read_changed();
--> statement-breakpoint
CREATE TRIGGER proposal_read_inbox_update AFTER UPDATE ON proposal_read REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_read_changed();
--> statement-breakpoint
CREATE TRIGGER proposal_read_inbox_delete AFTER DELETE ON proposal_read REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_read_changed();
--> statement-breakpoint
CREATE TRIGGER user_inbox_insert AFTER INSERT ON "user" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_admins_changed();
--> statement-breakpoint
CREATE TRIGGER user_inbox_update AFTER UPDATE ON "user" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_admins_changed();
--> statement-breakpoint
-- The inbox's unfiltered total: conversations counted by the tally triggers of 0002.
CREATE TRIGGER proposal_thread_tally_insert AFTER INSERT ON proposal_thread REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('conversation', $$'all'$$, '0');
--> statement-breakpoint
CREATE TRIGGER proposal_thread_tally_delete AFTER DELETE ON proposal_thread REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('conversation', $$'all'$$, '0');
--> statement-breakpoint
CREATE TRIGGER proposal_thread_tally_truncate AFTER TRUNCATE ON proposal_thread
  FOR EACH STATEMENT EXECUTE FUNCTION tally_delta('conversation', '', '');
--> statement-breakpoint
INSERT INTO inbox_entry (proposal_id, user_id, inbox_sort)
  SELECT t.proposal_id, a.id, inbox_sort_of(t.last_activity_at, t.last_client_message_id, r.last_read_message_id)
  FROM proposal_thread t
  CROSS JOIN "user" a
  LEFT JOIN proposal_read r ON r.user_id = a.id AND r.proposal_id = t.proposal_id
  WHERE a.role = 'admin';
--> statement-breakpoint
INSERT INTO tally (entity, bucket, n, cents)
  SELECT 'conversation', 'all', count(*), 0 FROM proposal_thread HAVING count(*) > 0;
