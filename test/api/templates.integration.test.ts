// Studio templates run out of the box: each one, saved as a project and started with a message,
// finishes its run with scripted models and no provider, and its subagents all complete.
import { describe, expect, it } from "vitest";
import { STUDIO_TEMPLATES } from "@/lib/studio/templates";
import { testServerForFile } from "../fixture";
import { threadHelpers } from "../thread-helpers";

const fixture = testServerForFile();
const api = fixture.api;
const { projectWith, startThread, waitFor, messagesOf } = threadHelpers(fixture);

type TreeNode = { id: string; status: string; children: TreeNode[] };

const flatten = (node: TreeNode): TreeNode[] => [node, ...node.children.flatMap(flatten)];

describe("studio templates", () => {
  for (const template of STUDIO_TEMPLATES) {
    it(`"${template.label}" runs to the end with its demo models`, async () => {
      const bundle = template.build();
      const agent = bundle.agents.find((candidate) => (candidate.type ?? "ai_human") === "ai_human");
      expect(agent).toBeDefined();
      const projectId = await projectWith(bundle);
      const threadId = await startThread(projectId, agent!.name, "Please start.");
      await waitFor(threadId, ["idle"], 30_000);
      // Reports of non-blocking children may start more turns: wait until the whole tree is at rest.
      const deadline = Date.now() + 30_000;
      let nodes: TreeNode[] = [];
      for (;;) {
        const tree = await api<{ root: TreeNode }>("GET", `/api/threads/${threadId}/tree`);
        nodes = flatten(tree.body.root);
        const atRest = nodes.every((node) => ["idle", "completed"].includes(node.status));
        if (atRest || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(
        nodes.map((node) => node.status).filter((status) => !["idle", "completed"].includes(status)),
      ).toEqual([]);
      const last = (await messagesOf(threadId)).at(-1);
      expect(last?.role).toBe("assistant");
      expect(last?.content).not.toBe("(script exhausted)");
      expect((last?.content ?? "").trim()).not.toBe("");
    });
  }
});
