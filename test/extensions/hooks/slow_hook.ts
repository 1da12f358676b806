import { defineHook } from "../../../runtime/extensions/define";

export default defineHook({
  hook: "after_system_message",
  id: "slow_hook",
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("never used"), 60_000)),
});
