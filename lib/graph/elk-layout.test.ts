import { describe, expect, it } from "vitest";
import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { BADGE_ROOM_ABOVE_AGENT, CARD, cardPorts, cardSize, FIT_VIEW_MIN_ZOOM } from "./card-geometry";
import { decompileBundle } from "./decompile";
import type { Graph } from "./document";
import { deriveEdges } from "./edges";
import {
  chooseLayout,
  DEFAULT_LAYOUT_ROOM,
  decompileBundleLaidOut,
  layeringEdges,
  layoutWithElk,
  shownShare,
  toElkGraph,
} from "./elk-layout";
import { fitCanvasViewport, graphBounds, layoutRoomFor } from "./fit-viewport";

/**
 * The studio's canvas pane (px) as measured at each window size with the default panels (the
 * palette is a rail at 1280), and with the playground open in the inspector's place.
 */
const STUDIO_PANES = {
  "1280×800": { width: 961, height: 477 },
  "1280×800 + playground": { width: 821, height: 477 },
  "1440×900": { width: 951, height: 577 },
  "1440×900 + playground": { width: 811, height: 577 },
  "1920×1080": { width: 1431, height: 757 },
} as const;

/** Fails when two cards overlap, or a card sits less than the badge room below another (agents). */
function expectApartWithBadgeRoom(graph: Graph, where: string) {
  const placed = boxes(graph);
  const types = new Map(graph.nodes.map((node) => [node.id, node.type]));
  for (const [index, a] of placed.entries()) {
    for (const b of placed.slice(index + 1)) {
      const apart =
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `${where}: ${a.id} overlaps ${b.id}`).toBe(true);
      const sideBySide = a.x + a.width <= b.x || b.x + b.width <= a.x;
      if (sideBySide) continue;
      const [upper, lower] = a.y < b.y ? [a, b] : [b, a];
      if (types.get(lower.id) !== "agent") continue;
      expect(
        lower.y - (upper.y + upper.height),
        `${where}: ${upper.id} above ${lower.id}`,
      ).toBeGreaterThanOrEqual(BADGE_ROOM_ABOVE_AGENT);
    }
  }
}

/** Room for any layout: nothing wraps. */
const UNBOUNDED = { width: 100_000, height: 100_000 };

function extent(graph: Graph) {
  const bounds = graphBounds(graph.nodes)!;
  return { width: bounds.width, height: bounds.height };
}

const SLOW = 60_000; // the first call loads ELK (1.6 MB), slow on a busy machine

function boxes(graph: Graph) {
  return graph.nodes.map((node) => ({ id: node.id, ...node.position, ...cardSize(node) }));
}

describe("toElkGraph", () => {
  const graph = decompileBundle(STUDIO_TEMPLATES[1]!.build());
  const elk = toElkGraph(graph, deriveEdges(graph));

  it("gives every card its size and fixed ports, an agent one port per side", () => {
    const agent = elk.children?.find((child) => child.id === "agent:asset_subagent");
    expect(agent).toMatchObject({
      width: CARD.width.agent,
      layoutOptions: { "elk.portConstraints": "FIXED_POS" },
    });
    expect(agent?.ports?.map((port) => port.id)).toEqual([
      "agent:asset_subagent::in",
      "agent:asset_subagent::sideA",
      "agent:asset_subagent::sideB",
    ]);
    const sideB = agent?.ports?.[2];
    expect(sideB?.y).toBeGreaterThan(agent?.ports?.[1]?.y ?? Number.POSITIVE_INFINITY);
    expect(sideB?.x).toBe(agent?.width);
  });

  it("connects edges port to port; an included prompt's own edges do not make a layer", () => {
    const side = elk.edges?.find((edge) => edge.id === "agent:asset_subagent:sideB");
    expect(side).toMatchObject({
      sources: ["agent:asset_subagent::sideB"],
      targets: ["prompt:asset_reviewer::in"],
    });
    const all = deriveEdges(graph);
    expect(all.some((edge) => edge.kind === "include")).toBe(true);
    expect(elk.edges).toHaveLength(layeringEdges(all).length);
    expect(elk.edges?.some((edge) => edge.id.includes(":prompt:"))).toBe(true);
    expect(elk.edges?.some((edge) => edge.id === "prompt:asset_style_guide:model")).toBe(false);
  });
});

describe("layoutWithElk", () => {
  for (const template of STUDIO_TEMPLATES) {
    it(
      `lays out the ${template.id} template in ordered layers with no overlapping cards`,
      async () => {
        const graph = decompileBundle(template.build());
        const edges = deriveEdges(graph);
        const laidOut = await layoutWithElk(graph, edges, UNBOUNDED);
        const placed = boxes(laidOut);
        for (const [index, a] of placed.entries()) {
          for (const b of placed.slice(index + 1)) {
            const apart =
              a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
            expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
          }
        }
        // Callers sit left of callees: every layering edge goes left to right, across a gap.
        const byId = new Map(placed.map((box) => [box.id, box]));
        for (const edge of layeringEdges(edges)) {
          const source = byId.get(edge.source)!;
          const target = byId.get(edge.target)!;
          expect(source.x + source.width, edge.id).toBeLessThan(target.x);
        }
        // Packed from the origin.
        expect(Math.min(...placed.map((box) => box.x))).toBe(0);
        expect(Math.min(...placed.map((box) => box.y))).toBe(0);
        // Deterministic: the same graph lays out the same way.
        expect((await layoutWithElk(graph, edges, UNBOUNDED)).nodes).toEqual(laidOut.nodes);
      },
      SLOW,
    );
  }

  it(
    "keeps the largest template within five columns, so it stays legible at fit view",
    async () => {
      const graph = decompileBundle(STUDIO_TEMPLATES[1]!.build());
      const laidOut = await layoutWithElk(graph, deriveEdges(graph), UNBOUNDED);
      const columns = new Set(laidOut.nodes.map((node) => node.position.x));
      expect(columns.size).toBeLessThanOrEqual(5);
      const right = Math.max(...boxes(laidOut).map((box) => box.x + box.width));
      expect(right).toBeLessThanOrEqual(1280);
    },
    SLOW,
  );

  it(
    "packs into rows when the layers side by side are wider than the room, and only then",
    async () => {
      const workers = STUDIO_TEMPLATES.find((template) => template.id === "named-workers")!;
      const graph = decompileBundle(workers.build());
      const edges = deriveEdges(graph);
      const wide = await layoutWithElk(graph, edges, UNBOUNDED);
      // Five layers side by side do not fit the studio's default pane at the smallest legible zoom …
      expect(shownShare(extent(wide), DEFAULT_LAYOUT_ROOM)).toBeLessThan(1);
      // … packed for it, they do: fewer columns, every card still apart.
      const packed = await layoutWithElk(graph, edges, DEFAULT_LAYOUT_ROOM);
      expect(shownShare(extent(packed), DEFAULT_LAYOUT_ROOM)).toBe(1);
      expect(extent(packed).width).toBeLessThan(extent(wide).width);
      const placed = boxes(packed);
      for (const [index, a] of placed.entries()) {
        for (const b of placed.slice(index + 1)) {
          const apart =
            a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
          expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
        }
      }
      // A canvas that fits keeps its plain layered layout.
      const chat = decompileBundle(STUDIO_TEMPLATES[0]!.build());
      const chatEdges = deriveEdges(chat);
      expect((await layoutWithElk(chat, chatEdges, DEFAULT_LAYOUT_ROOM)).nodes).toEqual(
        (await layoutWithElk(chat, chatEdges, UNBOUNDED)).nodes,
      );
    },
    SLOW,
  );

  it("keeps the plain layout unless wrapping shows clearly more of it", () => {
    // Two notes spanning width × height.
    const note = (id: string, x: number, y: number) =>
      ({ id, type: "note", position: { x, y }, data: { text: "" } }) as const;
    const { width: noteWidth, height: noteHeight } = cardSize(note("note:a", 0, 0));
    const at = (width: number, height: number): Graph => ({
      version: 1,
      nodes: [note("note:a", 0, 0), note("note:b", width - noteWidth, height - noteHeight)],
    });
    const room = { width: 1000, height: 600 };
    const fits = at(900, 500);
    const wide = at(2000, 500);
    const barelyBetter = at(1960, 500);
    const muchBetter = at(1200, 700);
    const fitsToo = at(950, 550);
    expect(chooseLayout(fits, [muchBetter], room)).toBe(fits);
    expect(chooseLayout(wide, [barelyBetter], room)).toBe(wide);
    expect(chooseLayout(wide, [muchBetter], room)).toBe(muchBetter);
    expect(chooseLayout(wide, [undefined, null], room)).toBe(wide);
    // The first alternative that fits wins, else the one shown most.
    expect(chooseLayout(wide, [muchBetter, fitsToo, fits], room)).toBe(fitsToo);
    expect(chooseLayout(wide, [barelyBetter, muchBetter], room)).toBe(muchBetter);
  });

  it("agents' side ports leave from their own rows", () => {
    const graph = decompileBundle(STUDIO_TEMPLATES[0]!.build());
    const agent = graph.nodes.find((node) => node.type === "agent")!;
    const [into, sideA, sideB] = cardPorts(agent);
    expect(into).toMatchObject({ id: "in", x: 0 });
    expect(sideA!.y).toBeLessThan(sideB!.y);
    expect(sideB!.y).toBeLessThan(cardSize(agent).height);
  });
});

describe("layoutWithElk for the studio's panes", () => {
  for (const template of STUDIO_TEMPLATES) {
    it(
      `shows the ${template.id} template whole, legible and clear of the zoom controls at every studio size`,
      async () => {
        const graph = decompileBundle(template.build());
        const edges = deriveEdges(graph);
        for (const [size, pane] of Object.entries(STUDIO_PANES)) {
          const laidOut = await layoutWithElk(graph, edges, layoutRoomFor(pane));
          const fit = fitCanvasViewport(laidOut.nodes, pane);
          const where = `${template.id} at ${size}`;
          expect(fit, where).toMatchObject({ fits: true, clear: true, minimap: false });
          expect(fit!.zoom, where).toBeGreaterThanOrEqual(FIT_VIEW_MIN_ZOOM);
          expectApartWithBadgeRoom(laidOut, where);
        }
      },
      SLOW,
    );
  }

  it(
    "lays a template out on the server for a pane that every studio size shows whole",
    async () => {
      for (const template of STUDIO_TEMPLATES) {
        const laidOut = await decompileBundleLaidOut(template.build());
        for (const [size, pane] of Object.entries(STUDIO_PANES)) {
          if (size.includes("playground")) continue;
          expect(fitCanvasViewport(laidOut.nodes, pane), `${template.id} at ${size}`).toMatchObject({
            fits: true,
            clear: true,
          });
        }
      }
    },
    SLOW,
  );

  it(
    "keeps room above every agent for its run badge, unbounded too",
    async () => {
      for (const template of STUDIO_TEMPLATES) {
        const graph = decompileBundle(template.build());
        expectApartWithBadgeRoom(await layoutWithElk(graph, deriveEdges(graph), UNBOUNDED), template.id);
      }
    },
    SLOW,
  );
});

describe("decompileBundleLaidOut", () => {
  it(
    "lays out a canvas made from definitions alone, but keeps the nodes a user placed",
    async () => {
      const bundle = STUDIO_TEMPLATES[0]!.build();
      const fresh = await decompileBundleLaidOut(bundle);
      expect(fresh.nodes.map((node) => node.position)).toEqual(
        (await layoutWithElk(decompileBundle(bundle), deriveEdges(decompileBundle(bundle)))).nodes.map(
          (node) => node.position,
        ),
      );
      const moved: Graph = {
        ...fresh,
        nodes: fresh.nodes.map((node) => ({ ...node, position: { x: node.position.x + 1000, y: 7 } })),
      };
      const again = await decompileBundleLaidOut(bundle, moved);
      expect(again.nodes.map((node) => node.position)).toEqual(moved.nodes.map((node) => node.position));
    },
    SLOW,
  );
});
