// Models the server cannot call: a model of a keyed provider (OpenAI, Anthropic) whose key variable
// is not set on this server. The bundle is valid either way (definitions name variables, never
// values), so this is the studio's own warning, from GET /api/providers, shown before a run fails
// on it. A model that names its own key variable (`apiKeyEnv`) or its own endpoint is not judged:
// the server says only whether its providers' usual variables are set.
import { definitionName, type Graph, type GraphDiagnostic } from "@/lib/graph";
import { DEFAULT_API_KEY_ENV, type ModelProvider } from "@/lib/standard";

/** What GET /api/providers says of one provider (names of variables only). */
export interface ProviderAvailability {
  provider: string;
  available: boolean;
  /** The env variables that make the provider available. */
  requires: readonly string[];
}

const PROVIDER_LABELS: Partial<Record<ModelProvider, string>> = { openai: "OpenAI", anthropic: "Anthropic" };

export function providerDiagnostics(
  graph: Graph,
  providers: readonly ProviderAvailability[] | null,
): GraphDiagnostic[] {
  if (!providers) return [];
  const diagnostics: GraphDiagnostic[] = [];
  graph.nodes
    .filter((node) => node.type === "model")
    .forEach((node, index) => {
      const definition = node.data.definition;
      const provider = definition.provider as ModelProvider;
      const label = PROVIDER_LABELS[provider];
      const usual = DEFAULT_API_KEY_ENV[provider];
      if (!label || !usual) return;
      if (definition.apiKeyEnv !== undefined && definition.apiKeyEnv !== usual) return;
      // Its key is a project credential (docs/security.md), not the server's environment.
      if (definition.apiKeyCredential !== undefined) return;
      const status = providers.find((candidate) => candidate.provider === provider);
      if (!status || status.available || !status.requires.includes(usual)) return;
      const name = definitionName(node);
      diagnostics.push({
        severity: "warning",
        code: "provider_not_configured",
        path: `models[${index}].provider`,
        node_id: node.id,
        entity: { kind: "model", name },
        message: `Model "${name}" uses ${label}, but ${usual} is not set on this server: a run that calls it fails. Set ${usual} in the server's environment and restart it, or switch the model to a configured provider (Models).`,
      });
    });
  return diagnostics;
}
