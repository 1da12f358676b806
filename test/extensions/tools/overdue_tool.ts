// Test code tool: answers after 2 s, longer than the tool time limit the time-limit tests set.
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Takes two seconds.",
  execute: async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { status: "success", result: "finally" };
  },
});
