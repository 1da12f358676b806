// Cost of one model call from the definition's prices (USD per million tokens).
import type { ModelDefinition } from "@/lib/standard";
import type { ModelUsage } from "./types";

const TOKENS_PER_PRICE_UNIT = 1_000_000;

type Prices = Pick<ModelDefinition, "inputPrice" | "outputPrice" | "cachedPrice">;

/** `inputPrice` on non-cached input, `cachedPrice ?? inputPrice` on cached input, `outputPrice` on output; missing prices cost 0. */
export function computeCostUsd(definition: Prices, usage: ModelUsage): number {
  const cachedInputTokens = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const uncachedInputTokens = usage.inputTokens - cachedInputTokens;
  const inputPrice = definition.inputPrice ?? 0;
  const cachedPrice = definition.cachedPrice ?? inputPrice;
  const outputPrice = definition.outputPrice ?? 0;
  return (
    (uncachedInputTokens * inputPrice + cachedInputTokens * cachedPrice + usage.outputTokens * outputPrice) /
    TOKENS_PER_PRICE_UNIT
  );
}
