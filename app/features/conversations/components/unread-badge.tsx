import { cappedCount } from "#app/lib/vocabulary";

/** An unread count: a small red pill whose text says what it counts ("3 unread"); nothing at 0. */
export function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <span
      data-testid={testId}
      className="ml-1 inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-semibold text-white"
    >
      {cappedCount(count)}
      <span className="sr-only"> unread</span>
    </span>
  );
}
