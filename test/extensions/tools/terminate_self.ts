import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Terminates its own thread.",
  execute: async (state) => {
    await state.terminate();
    return { status: "success", result: "terminated" };
  },
});
