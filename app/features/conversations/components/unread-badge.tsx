import { cappedCount } from "#app/lib/vocabulary";

/** An unread count: a small red pill whose text says what it counts ("3 unread"); nothing at 0. */
export function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    // `unread-badge`: the pill's look (app/app.css), also the sidebar's (app/components/portal-header.tsx).
    <span data-testid={testId} className="unread-badge ml-1">
      {cappedCount(count)}
      <span className="sr-only"> unread</span>
    </span>
  );
}
