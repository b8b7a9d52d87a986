/**
 * Live updates in the browser (docs/product.md#live-updates): one `EventSource` on `/events` per
 * tab, opened by the signed-in areas' frame. Each update makes the page reload its data (React
 * Router's revalidation: the loaders of the page run again and the rows, badges and counts change
 * in place), unless a page handles it itself ({@link useLiveUpdate}); a polite live region
 * announces it ("Proposal "Bakery site" is now Planning.").
 *
 * - A hidden tab does not reload its data: it does so once when it is shown again (so an open
 *   thread marks messages read only when it is seen).
 * - While the tab is moving to another page, a reload waits until that page has arrived (a reload
 *   would restart the navigation and drop the answer already computed).
 * - A tab that just sent a form keeps the answer it shows (a "Saved." message, a form's errors):
 *   an update caused by its own user's write is neither reloaded nor announced there (the form's
 *   answer already brought the new state), and another update waits until
 *   {@link AFTER_SUBMIT_QUIET_MS} after the form's answer.
 * - A dropped stream is opened again within 0.5–3 s, then 3 s, 6 s … up to a minute apart, with the
 *   last event id (`?lastEventId=`); the server replays what was missed, or sends `reload`.
 * - When the server ends the stream for good (`end`): signed out → the page's data is reloaded,
 *   which sends the tab to the sign-in page; a seventh tab → this one waits until it is shown again.
 * - A refused stream (signed out, server full) is tried again after 30–60 s.
 * - Without JavaScript nothing of this runs: the next page load shows the new state.
 *
 * `<html data-live>` says the stream's state (`connecting`, `open`, `reconnecting`, `closed`,
 * `ended`): the browser tests wait for `open`.
 */
import { useEffect, useRef, useState } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
import { END_EVENT, LIVE_EVENT, READY_EVENT, RELOAD_EVENT, type LiveUpdate, type StreamEndReason } from "../live-kinds";
import { announcementFor } from "../live.messages";

/** A page's own handler: returns true when it handled the update (no reload of the page's data). */
export type LiveUpdateListener = (update: LiveUpdate) => boolean | void;

const listeners = new Set<LiveUpdateListener>();

/**
 * Lets a page react to updates itself (e.g. the open thread appends a message). The listener is
 * called for every update the tab receives; returning true skips the page-wide reload.
 */
export function useLiveUpdate(listener: LiveUpdateListener): void {
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => {
    const wrapped: LiveUpdateListener = (update) => current.current(update);
    listeners.add(wrapped);
    return () => void listeners.delete(wrapped);
  }, []);
}

/** How long after an update the page's data is reloaded (several updates at once: one reload). */
const RELOAD_DELAY_MS = 150;
/** How long after this tab's own form answer a reload waits (its message stays readable). */
export const AFTER_SUBMIT_QUIET_MS = 8_000;

/** Opens the tab's stream and renders the polite announcer. Render it once per signed-in page. */
export function LiveUpdates() {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [announcement, setAnnouncement] = useState<{ text: string; n: number } | null>(null);

  // This tab's own form posts: while one is under way, and until AFTER_SUBMIT_QUIET_MS after it.
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const submitting =
    (navigation.state !== "idle" && navigation.formMethod !== undefined) || fetchers.some((f) => f.state !== "idle" && f.formMethod);
  const submittingRef = useRef(submitting);
  const lastSubmitRef = useRef(0);
  useEffect(() => {
    if (submittingRef.current && !submitting) lastSubmitRef.current = Date.now();
    submittingRef.current = submitting;
  }, [submitting]);
  // A navigation under way: a reload now would restart it (React Router runs the new page's loaders
  // again, and the answer already computed is dropped — an opened thread's "New" divider with it, as
  // that first answer marked the messages read). The reload waits until the page has arrived.
  const navigatingRef = useRef(false);
  navigatingRef.current = navigation.state !== "idle";

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const root = document.documentElement;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    let stale = false;
    let waitingForVisible = false;
    let me: string | undefined;
    const seen = new Set<number>();
    /** Milliseconds a reload must still wait for this tab's own form answer (0: none). */
    const quietLeft = () =>
      submittingRef.current ? AFTER_SUBMIT_QUIET_MS : Math.max(0, lastSubmitRef.current + AFTER_SUBMIT_QUIET_MS - Date.now());

    const reload = () => {
      if (document.visibilityState === "hidden") {
        stale = true;
        return;
      }
      stale = false;
      clearTimeout(reloadTimer);
      const wait = Math.max(RELOAD_DELAY_MS, quietLeft());
      reloadTimer = setTimeout(() => (quietLeft() > 0 || navigatingRef.current ? reload() : void revalidate.current()), wait);
    };

    // Reconnecting is ours, not the browser's (which retries every 3 s for ever): after a drop the
    // first try comes at once, then 3 s, 6 s … up to a minute apart, with jitter, and the last
    // event id goes along so that nothing is missed.
    let failures = 0;
    let lastEventId = "";
    const open = () => {
      clearTimeout(retryTimer);
      source?.close();
      const es = new EventSource(lastEventId ? `/events?lastEventId=${encodeURIComponent(lastEventId)}` : "/events");
      let opened = false;
      source = es;
      root.dataset.live = "connecting";
      es.addEventListener(READY_EVENT, (event) => {
        opened = true;
        failures = 0;
        try {
          me = (JSON.parse((event as MessageEvent<string>).data) as { userId?: string }).userId;
        } catch {
          /* no id: every update reloads */
        }
        root.dataset.live = "open";
      });
      es.addEventListener(LIVE_EVENT, (event) => {
        let update: LiveUpdate;
        try {
          update = JSON.parse((event as MessageEvent<string>).data) as LiveUpdate;
        } catch {
          return;
        }
        lastEventId = String(update.id);
        if (seen.has(update.id)) return;
        seen.add(update.id);
        let handled = false;
        for (const listener of listeners) if (listener(update) === true) handled = true;
        const own = me !== undefined && update.data.actorId === me;
        // This tab just wrote it: the form's answer already shows the new state.
        if (own && quietLeft() > 0) return;
        const text = own ? null : announcementFor(update);
        if (text) setAnnouncement((previous) => ({ text, n: (previous?.n ?? 0) + 1 }));
        if (!handled) reload();
      });
      es.addEventListener(RELOAD_EVENT, reload);
      es.addEventListener(END_EVENT, (event) => {
        es.close();
        if (source === es) source = null;
        root.dataset.live = "ended";
        let reason: StreamEndReason | undefined;
        try {
          reason = (JSON.parse((event as MessageEvent<string>).data) as { reason?: StreamEndReason }).reason;
        } catch {
          /* no reason: treat as signed out */
        }
        if (reason === "too-many-streams") {
          waitingForVisible = true;
          return;
        }
        // Signed out (the guard sends the tab to sign-in) or another role (the right area).
        void revalidate.current();
        if (reason === "role-changed" || reason === "membership-changed") open();
      });
      es.onerror = () => {
        es.close();
        if (source === es) source = null;
        if (!opened && failures === 0) {
          // Refused (signed out: 204; the server is full: 503): check the page, try again later.
          root.dataset.live = "closed";
          void revalidate.current();
          retryTimer = setTimeout(open, 30_000 + Math.random() * 30_000);
          return;
        }
        // Dropped (a server restarting, the network): again within 0.5–3 s (spread, so that the
        // tabs of a restarted server do not all come back at once), then 3 s, 6 s … up to a minute.
        root.dataset.live = "reconnecting";
        const delay =
          failures === 0 ? 500 + Math.random() * 2_500 : Math.min(60_000, 3_000 * 2 ** (failures - 1)) * (0.75 + Math.random() / 2);
        // The first failed try: the page checks whether its session is still there.
        if (failures === 1) void revalidate.current();
        failures++;
        retryTimer = setTimeout(open, delay);
      };
    };

    const onVisibility = () => {
      if (document.visibilityState !== "visible") return;
      if (stale) reload();
      if (waitingForVisible) {
        waitingForVisible = false;
        open();
      }
    };

    open();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      clearTimeout(retryTimer);
      clearTimeout(reloadTimer);
      source?.close();
      delete root.dataset.live;
    };
  }, []);

  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-announcer">
      {announcement ? <p key={announcement.n}>{announcement.text}</p> : null}
    </div>
  );
}
