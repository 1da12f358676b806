"use client";
// Inspector for a note: free text kept on the canvas only, never in the definitions.
import { findNode, setNoteText } from "@/lib/studio/document-edits";
import { TextField } from "./fields";
import { useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";

export function NoteInspector({ nodeId }: { nodeId: string }) {
  const store = useStudioStore();
  const node = findNode(useCompiled().graph, nodeId);
  return (
    <TextField
      field="note.text"
      label="Note text"
      multiline
      value={node?.type === "note" ? node.data.text : ""}
      onChange={(text) =>
        store.getState().edit((document) => setNoteText(document, nodeId, text), `${nodeId}:text`)
      }
    />
  );
}
