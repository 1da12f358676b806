import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Stops the run after this call.",
  execute: async (state) => {
    state.execution?.stop();
    return { status: "success", result: "stopping" };
  },
});
