import { formatBytes, THUMBNAIL_SIZE, THUMBNAIL_TYPES } from "#app/features/files/file-kinds";
import type { ThreadFile } from "../thread-types";

/** One attachment: its name (a download link) and size. */
export function FileChip({ file }: { file: ThreadFile }) {
  return (
    <a
      href={file.url}
      download={file.name}
      className="inline-flex max-w-full items-center gap-2 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 fill-none stroke-current stroke-2 text-slate-600">
        <path d="M21 12.5 12.6 20.9a5.5 5.5 0 0 1-7.8-7.8l8.5-8.5a3.7 3.7 0 0 1 5.2 5.2l-8.5 8.5a1.8 1.8 0 0 1-2.6-2.6l7.8-7.8" />
      </svg>
      <span className="truncate font-medium">{file.name}</span>
      <span className="shrink-0 text-xs text-slate-600">{formatBytes(file.size)}</span>
    </a>
  );
}

/**
 * An attached image's thumbnail (issue #41), above its download link: served by the file's route
 * (`?thumb=1`, the same access check), loaded lazily, its box sized by the width and height
 * attributes so nothing moves when it arrives; its text is the file's name. Nothing for other kinds.
 */
export function FileThumbnail({ file }: { file: ThreadFile }) {
  if (!THUMBNAIL_TYPES.has(file.contentType)) return null;
  return (
    <img
      src={`${file.url}?thumb=1`}
      alt={file.name}
      width={THUMBNAIL_SIZE.width}
      height={THUMBNAIL_SIZE.height}
      loading="lazy"
      decoding="async"
      data-testid="file-thumbnail"
      className="rounded-md border border-slate-200 bg-slate-100 object-cover"
      style={{ width: THUMBNAIL_SIZE.width, height: THUMBNAIL_SIZE.height }}
    />
  );
}
