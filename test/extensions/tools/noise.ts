import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Produces output a hook removes from history.",
  execute: async () => ({ status: "success", result: "noise" }),
});
