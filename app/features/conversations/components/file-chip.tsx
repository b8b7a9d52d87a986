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
      <span aria-hidden="true">📎</span>
      <span className="truncate font-medium">{file.name}</span>
      <span className="shrink-0 text-xs text-slate-600">{formatBytes(file.size)}</span>
    </a>
  );
}
