import { defineTool } from "../../../runtime/extensions/define";

export default defineTool({
  description: "Returns a report that contains a secret token and a receipt file.",
  execute: async () => ({
    status: "success",
    result: "report: token SECRET-123 inside",
    attachments: [
      { name: "receipt.txt", mimeType: "text/plain", data: Buffer.from("paid").toString("base64") },
    ],
  }),
});
