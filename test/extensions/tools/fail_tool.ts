import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Always reports an error.",
  execute: async () => ({ status: "error", error: "warehouse offline" }),
});
