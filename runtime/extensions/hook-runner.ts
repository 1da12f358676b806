// Runs hooks by the spec's rules (Hooks §1, spec notes §5.2): only declared hooks run; a prompt that
// declares hooks replaces the agent's; hooks run in declaration order, each receiving the previous
// one's output; a hook that throws (or times out) is logged and the last good value is kept, unless
// the caller asks for errors to propagate (before_create_message from injectMessage).
import type { AgentDefinition, PromptDefinition } from "@/lib/standard";
import type { HookDefinition, HookName, HookSignatures, ThreadState } from "./define";
import type { ExtensionRegistry } from "./registry";

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/** The hook ids in force: the prompt's when it declares any, else the agent's. */
export function declaredHookIds(
  prompt: Pick<PromptDefinition, "hooks"> | undefined,
  agent: Pick<AgentDefinition, "hooks"> | undefined,
): string[] {
  if (prompt?.hooks && prompt.hooks.length > 0) return prompt.hooks;
  return agent?.hooks ?? [];
}

export class HookError extends Error {
  constructor(
    readonly hookId: string,
    readonly hook: HookName,
    message: string,
  ) {
    super(`Hook "${hookId}" (${hook}) failed: ${message}`);
  }
}

type Rest<K extends HookName> = HookSignatures[K] extends (state: ThreadState, ...rest: infer R) => unknown
  ? R
  : never;

export class HookRunner {
  private readonly warned = new Set<string>();

  constructor(
    private readonly registry: ExtensionRegistry,
    private readonly timeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
    private readonly log: (message: string) => void = (message) => console.warn(`[tandem] ${message}`),
  ) {}

  /** The declared hooks of this kind that exist on this server, in declaration order. */
  select<K extends HookName>(kind: K, ids: readonly string[]): HookDefinition<K>[] {
    const selected: HookDefinition<K>[] = [];
    for (const id of ids) {
      const hook = this.registry.hooks.get(id);
      if (!hook) {
        if (!this.warned.has(id)) {
          this.warned.add(id);
          this.log(`hook "${id}" is declared but no extension defines it; it does not run.`);
        }
        continue;
      }
      if (hook.hook === kind) selected.push(hook as HookDefinition<K>);
    }
    return selected;
  }

  has(kind: HookName, ids: readonly string[]): boolean {
    return ids.some((id) => this.registry.hooks.get(id)?.hook === kind);
  }

  /**
   * Chains a transforming hook: `value` is the first argument after the state (or the last one for
   * the tool-result hooks, given as `valueIndex`). `undefined` from a hook keeps the value; `null`
   * keeps it too unless `nullable`, where it ends the chain with null (drop the tool call).
   */
  async transform<K extends HookName, V>(
    kind: K,
    ids: readonly string[],
    state: ThreadState,
    build: (value: V) => Rest<K>,
    initial: V,
    options: { nullable?: boolean; propagate?: boolean; context?: string } = {},
  ): Promise<V | null> {
    let value = initial;
    for (const hook of this.select(kind, ids)) {
      try {
        const output = await this.call(hook, state, build(value));
        if (output === undefined) continue;
        if (output === null) {
          if (options.nullable) return null;
          continue;
        }
        value = output as V;
      } catch (error) {
        const failure = new HookError(hook.id, kind, errorMessage(error));
        if (options.propagate) throw failure;
        this.log(
          `${failure.message}${options.context ? ` (${options.context})` : ""}; keeping the last good value.`,
        );
      }
    }
    return value;
  }

  /** Runs side-effect hooks; failures are logged. */
  async notify<K extends HookName>(
    kind: K,
    ids: readonly string[],
    state: ThreadState,
    ...args: Rest<K>
  ): Promise<void> {
    for (const hook of this.select(kind, ids)) {
      try {
        await this.call(hook, state, args);
      } catch (error) {
        this.log(`${new HookError(hook.id, kind, errorMessage(error)).message}.`);
      }
    }
  }

  private async call<K extends HookName>(
    hook: HookDefinition<K>,
    state: ThreadState,
    args: Rest<K>,
  ): Promise<unknown> {
    const execute = hook.execute as (state: ThreadState, ...rest: unknown[]) => unknown;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => execute(state, ...args)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The error's message only: stacks and values may hold secrets (spec: hooks MUST NOT expose them). */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
