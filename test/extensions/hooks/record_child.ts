// after_subagent_created: the parent's state and the new child's, both usable (a file in each).
import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_subagent_created",
  id: "record_child",
  execute: async (parent, child) => {
    await parent.writeFile(`/children/${child.threadId}.txt`, child.agentId);
    await child.writeFile("/from-parent.txt", parent.threadId);
  },
});
