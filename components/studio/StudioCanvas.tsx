"use client";
// The React Flow canvas: renders the document and turns drags, connections and deletions into
// document edits. Refused connections say why in the status line while the user is still drawing.
// While threads run, active agents and prompts are highlighted (useNodeActivity).
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  MiniMap,
  type NodeChange,
  ReactFlow,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useMemo, useState } from "react";
import { definitionName, deriveEdges, isDefinitionNode } from "@/lib/graph";
import {
  connect,
  connectionRefusal,
  disconnect,
  findNode,
  moveNodes,
  removeNodes,
} from "@/lib/studio/document-edits";
import { type StudioFlowNode, toFlowEdges, toFlowNodes } from "./flow-elements";
import { STUDIO_NODE_TYPES } from "./nodes";
import { useStudio, useStudioStore } from "./StudioStoreContext";
import { useCompiled } from "./useCompiled";
import { useNodeActivity } from "./useNodeActivity";

type Size = { width: number; height: number };

function nodeLabel(graphNodeId: string, graph: ReturnType<typeof useCompiled>["graph"]): string {
  const node = findNode(graph, graphNodeId);
  return node && isDefinitionNode(node) ? definitionName(node) || node.type : "note";
}

export function StudioCanvas({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const selection = useStudio((state) => state.selection);
  const { graph, edges, counts } = useCompiled();
  const [measured, setMeasured] = useState<Map<string, Size>>(() => new Map());
  const activity = useNodeActivity(projectId, graph.nodes);

  const flowNodes = useMemo(
    () => toFlowNodes(graph, counts, selection, measured, activity),
    [graph, counts, selection, measured, activity],
  );
  const flowEdges = useMemo(
    () => toFlowEdges(graph, edges, counts, selection),
    [graph, edges, counts, selection],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<StudioFlowNode>[]) => {
      const sizes = new Map<string, Size>();
      const positions = new Map<string, { x: number; y: number }>();
      let dragging = false;
      const removed = new Set<string>();
      for (const change of changes) {
        if (change.type === "dimensions" && change.dimensions) sizes.set(change.id, change.dimensions);
        if (change.type === "position" && change.position) {
          positions.set(change.id, change.position);
          dragging ||= change.dragging === true;
        }
        if (change.type === "position" && change.dragging === false && !change.position) {
          positions.set(
            change.id,
            findNode(store.getState().history.present, change.id)?.position ?? { x: 0, y: 0 },
          );
        }
        if (change.type === "remove") removed.add(change.id);
      }
      if (sizes.size) setMeasured((current) => new Map([...current, ...sizes]));
      if (positions.size) store.getState().dragTo((document) => moveNodes(document, positions), !dragging);
      if (removed.size) {
        store.getState().edit((document) => removeNodes(document, removed));
        store.getState().select(null);
      }
    },
    [store],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<Edge>[]) => {
      for (const change of changes) {
        if (change.type !== "remove") continue;
        store.getState().edit((document) => {
          const edge = deriveEdges(document).find((candidate) => candidate.id === change.id);
          return edge ? disconnect(document, edge) : document;
        });
      }
    },
    [store],
  );

  const isValidConnection = useCallback(
    (connection: Edge | Connection) => {
      const refusal = connectionRefusal(store.getState().history.present, connection);
      if (refusal) store.getState().setStatus({ tone: "error", text: refusal });
      return refusal === null;
    },
    [store],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const document = store.getState().history.present;
      store.getState().edit((current) => connect(current, connection));
      store.getState().setStatus({
        tone: "info",
        text: `Connected ${nodeLabel(connection.source, document)} → ${nodeLabel(connection.target, document)}`,
      });
    },
    [store],
  );

  return (
    <ReactFlow<StudioFlowNode, Edge>
      nodes={flowNodes}
      edges={flowEdges}
      nodeTypes={STUDIO_NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      isValidConnection={isValidConnection}
      onNodeClick={(_, node) => store.getState().select({ kind: "node", id: node.id })}
      onEdgeClick={(_, edge) => store.getState().select({ kind: "edge", id: edge.id })}
      onPaneClick={() => store.getState().select(null)}
      fitView
      fitViewOptions={{ maxZoom: 1 }}
      proOptions={{ hideAttribution: true }}
      aria-label="Studio canvas"
    >
      <Background gap={16} />
      <MiniMap pannable zoomable ariaLabel="Canvas minimap" />
      <Controls />
    </ReactFlow>
  );
}
