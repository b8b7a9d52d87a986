import { LocalDateTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { formatBytes } from "#app/features/files/file-kinds";
import type { ThreadFile } from "../thread-types";

/** The Files tab's list (docs/product.md#files): name, size, who, when — newest first. */
export function FilesTable({ files }: { files: ThreadFile[] }) {
  if (files.length === 0)
    return <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">No files shared yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Files shared in this conversation, newest first</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Size
            </th>
            <th scope="col" className="px-3 py-2">
              Shared by
            </th>
            <th scope="col" className="px-3 py-2">
              When
            </th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.id} className="border-t border-slate-200">
              <td className="max-w-72 px-3 py-2">
                <a href={file.url} download={file.name} className="font-medium wrap-anywhere text-brand-700 underline">
                  {file.name}
                </a>{" "}
                {file.internal ? <Badge tone="amber">Internal note</Badge> : null}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">{formatBytes(file.size)}</td>
              <td className="px-3 py-2">{file.uploadedByName}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <LocalDateTime value={file.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
