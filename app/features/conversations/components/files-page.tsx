import { Link } from "react-router";
import { threadPath } from "../thread-paths";
import type { ThreadFile } from "../thread-types";
import { ThreadTabs } from "./conversation";
import { FilesTable } from "./files-table";

/** The Files tab of a conversation (docs/product.md#files), for the client's and the admin's routes. */
export function FilesPage({
  data,
}: {
  data: { proposalId: number; label: string; side: "client" | "agency"; files: ThreadFile[]; storage: string };
}) {
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <p className="text-sm">
        <Link to={threadPath(data.side, data.proposalId)} className="text-brand-700 underline">
          ← {data.label}
        </Link>
      </p>
      <div className="flex flex-wrap items-end justify-between gap-2 border-b border-slate-200">
        <h1 className="pb-2 text-2xl font-bold tracking-tight wrap-anywhere">Files: {data.label}</h1>
        <ThreadTabs side={data.side} proposalId={data.proposalId} fileCount={data.files.length} current="files" />
      </div>
      <p className="text-sm text-slate-700">
        {data.side === "client" ? `Your organisation: ${data.storage}.` : `This client: ${data.storage}.`}
      </p>
      <FilesTable files={data.files} />
    </div>
  );
}
