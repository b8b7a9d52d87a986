import { formatBytes } from "#app/features/files/file-kinds";
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
