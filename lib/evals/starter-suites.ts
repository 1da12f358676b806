// Which template suites fit a project (pure): the names of its agents and models, read leniently from
// its definitions, and the suites whose agent, judges and simulated users all exist in it.
import { z } from "zod";
import { type EvalSuite, simulatedUserOf } from "./eval-shapes";

const NamedSchema = z.looseObject({ name: z.string() });
const DefinitionsSchema = z.looseObject({
  agents: z.array(z.unknown()).optional().catch(undefined),
  models: z.array(z.unknown()).optional().catch(undefined),
});

const names = (items: unknown[] | undefined) =>
  (items ?? []).flatMap((item) => {
    const parsed = NamedSchema.safeParse(item);
    return parsed.success ? [parsed.data.name] : [];
  });

export function definitionNames(definitions: unknown): { agents: string[]; models: string[] } {
  const parsed = DefinitionsSchema.safeParse(definitions);
  return {
    agents: names(parsed.data?.agents).sort(),
    models: names(parsed.data?.models).sort(),
  };
}

/** The models a suite needs: those of its judges and of its simulated users. */
export function modelsNamedBy(suite: EvalSuite): string[] {
  const judges = [
    ...(suite.assertions ?? []),
    ...suite.cases.flatMap((evalCase) => evalCase.assertions ?? []),
  ]
    .filter((assertion) => assertion.type === "judge" && assertion.model)
    .map((assertion) => assertion.model ?? "");
  const simulated = suite.cases.flatMap((evalCase) => {
    const user = simulatedUserOf(evalCase.input);
    return user ? [user.model] : [];
  });
  return [...new Set([...judges, ...simulated])];
}

export function starterSuitesFor(
  templates: readonly { label: string; evalSuites?: () => EvalSuite[] }[],
  project: { agents: readonly string[]; models: readonly string[] },
): { template: string; suite: EvalSuite }[] {
  return templates.flatMap((template) =>
    (template.evalSuites?.() ?? [])
      .filter(
        (suite) =>
          project.agents.includes(suite.agent_id) &&
          modelsNamedBy(suite).every((model) => project.models.includes(model)),
      )
      .map((suite) => ({ template: template.label, suite })),
  );
}
