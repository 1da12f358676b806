"use client";
// The selected thread's filesystem (GET /api/threads/:id/fs, directories walked) with download links;
// an empty one says so without a table of column headers over nothing.
import { type ApiClient, threadFileUrl } from "@/lib/api/client";
import { formatBytes } from "./inspect-format";
import { PanelToolbar } from "./PanelToolbar";
import { useInspectorData } from "./useInspectorData";

export function FilesPanel({
  loadFiles,
  threadId,
  status,
}: {
  loadFiles: ApiClient["files"]["listAll"];
  threadId: string;
  status: string;
}) {
  const { data, loading, error, refresh } = useInspectorData(loadFiles, threadId, status);
  const files = data ?? [];

  return (
    <section aria-label="Files" className="flex min-h-0 flex-1 flex-col">
      <PanelToolbar
        summary={`${files.length} file${files.length === 1 ? "" : "s"}`}
        loading={loading}
        error={error}
        onRefresh={refresh}
      />
      <div className="min-h-0 flex-1 overflow-y-auto p-3">
        {files.length === 0 ? (
          loading || error ? null : (
            <p data-testid="files-empty" className="text-muted">
              No files in this thread yet. Files the agents write, and attachments sent with a message, show
              here.
            </p>
          )
        ) : (
          <table aria-label="Thread files" className="w-full text-left text-sm">
            <thead className="text-xs text-muted">
              <tr>
                <th className="py-1 font-medium">Path</th>
                <th className="py-1 font-medium">Size</th>
                <th className="py-1 font-medium">Type</th>
                <th className="py-1 font-medium">
                  <span className="sr-only">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {files.map((file) => (
                <tr key={file.path} data-testid="thread-file" className="border-t border-border">
                  <td className="py-1 font-mono">{file.path}</td>
                  <td className="py-1">{formatBytes(file.size)}</td>
                  <td className="py-1 text-muted">{file.mimeType}</td>
                  <td className="py-1">
                    <a
                      className="text-accent underline"
                      href={threadFileUrl(threadId, file.path)}
                      download={file.name}
                      aria-label={`Download ${file.path}`}
                    >
                      Download
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
