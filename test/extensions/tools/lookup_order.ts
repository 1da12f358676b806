// Test code tool: validated zod args, env through ThreadState, a file written, a JSON result.
import { z } from "zod";
import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Look up an order by id and return its status.",
  args: z.object({
    orderId: z.string().min(3).describe("The order id, e.g. A-100"),
    verbose: z.boolean().optional(),
  }),
  execute: async (state, args) => {
    const shop = await state.env("SHOP_NAME");
    await state.writeFile(
      `/orders/${args.orderId}.json`,
      JSON.stringify({ id: args.orderId }),
      "application/json",
    );
    return { status: "success", result: { order: args.orderId, shop, status: "shipped" } };
  },
});
