// The canvas document on the wire (what `PUT /api/projects/:id/graph` takes and the project detail
// answers): positioned nodes that each hold one definition (agent, prompt, tool, model) or a note.
// Declared here so the route, the browser's client and lib/graph (its helpers) share one schema.
import { z } from "zod";

export const GRAPH_SCHEMA_VERSION = 1;

export const DEFINITION_NODE_KINDS = ["agent", "prompt", "tool", "model"] as const;
export type DefinitionNodeKind = (typeof DEFINITION_NODE_KINDS)[number];
export type GraphNodeKind = DefinitionNodeKind | "note";

const PositionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });
const NodeIdSchema = z.string().min(1, "A node needs an id.").max(200);

/** Definitions inside nodes are kept as written while the user edits; compile() validates them. */
const DefinitionDataSchema = z.object({ definition: z.record(z.string(), z.unknown()) });

const nodeFields = {
  id: NodeIdSchema,
  position: PositionSchema,
  width: z.number().positive().optional(),
  height: z.number().positive().optional(),
};

export const GraphNodeSchema = z.discriminatedUnion("type", [
  z.object({ ...nodeFields, type: z.literal("agent"), data: DefinitionDataSchema }),
  z.object({ ...nodeFields, type: z.literal("prompt"), data: DefinitionDataSchema }),
  z.object({ ...nodeFields, type: z.literal("tool"), data: DefinitionDataSchema }),
  z.object({ ...nodeFields, type: z.literal("model"), data: DefinitionDataSchema }),
  z.object({
    ...nodeFields,
    type: z.literal("note"),
    data: z.object({ text: z.string().max(20_000), color: z.string().max(40).optional() }),
  }),
]);
export type GraphNode = z.infer<typeof GraphNodeSchema>;
export type DefinitionNode = Exclude<GraphNode, { type: "note" }>;

export const GraphSchema = z
  .object({
    version: z.literal(GRAPH_SCHEMA_VERSION).default(GRAPH_SCHEMA_VERSION),
    nodes: z.array(GraphNodeSchema).max(5_000),
    /** Derived edges may be sent back by clients; they are ignored and recomputed. */
    edges: z.array(z.unknown()).optional(),
    viewport: z
      .object({ x: z.number().finite(), y: z.number().finite(), zoom: z.number().positive() })
      .optional(),
  })
  .superRefine((graph, context) => {
    const seen = new Set<string>();
    graph.nodes.forEach((node, index) => {
      if (seen.has(node.id)) {
        context.addIssue({
          code: "custom",
          path: ["nodes", index, "id"],
          message: `Node id "${node.id}" is used twice.`,
        });
      }
      seen.add(node.id);
    });
  })
  .transform(({ edges: _ignored, ...graph }) => graph);
export type Graph = z.output<typeof GraphSchema>;
