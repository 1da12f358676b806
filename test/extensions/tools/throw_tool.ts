import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Always throws.",
  execute: async () => {
    throw new Error("boom");
  },
});
