// The definitions of a project version, one compact table per kind.
import type { ReactNode } from "react";

type Definition = Record<string, unknown>;
type Definitions = {
  agents?: Definition[];
  prompts?: Definition[];
  models?: Definition[];
  tools?: Definition[];
};

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-border bg-surface">
      <h2 className="border-b border-border px-4 py-2 font-medium">
        {title} <span className="text-muted">({count})</span>
      </h2>
      {count === 0 ? (
        <p className="px-4 py-3 text-muted">None yet.</p>
      ) : (
        <ul className="divide-y divide-border">{children}</ul>
      )}
    </section>
  );
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function DefinitionsSummary({ definitions }: { definitions: Definitions }) {
  const { agents = [], prompts = [], models = [], tools = [] } = definitions;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Section title="Agents" count={agents.length}>
        {agents.map((agent) => (
          <li key={text(agent.name)} className="flex justify-between px-4 py-2">
            <span className="font-mono">{text(agent.name)}</span>
            <span className="text-muted">{text(agent.type) || "ai_human"}</span>
          </li>
        ))}
      </Section>
      <Section title="Prompts" count={prompts.length}>
        {prompts.map((prompt) => (
          <li key={text(prompt.name)} className="flex justify-between px-4 py-2">
            <span className="font-mono">{text(prompt.name)}</span>
            <span className="text-muted">model {text(prompt.model)}</span>
          </li>
        ))}
      </Section>
      <Section title="Models" count={models.length}>
        {models.map((model) => (
          <li key={text(model.name)} className="flex justify-between px-4 py-2">
            <span className="font-mono">{text(model.name)}</span>
            <span className="text-muted">
              {text(model.provider)} · {text(model.model)}
            </span>
          </li>
        ))}
      </Section>
      <Section title="Tools" count={tools.length}>
        {tools.map((tool) => (
          <li key={text(tool.name)} className="flex justify-between px-4 py-2">
            <span className="font-mono">{text(tool.name)}</span>
            <span className="text-muted">{text(tool.kind)}</span>
          </li>
        ))}
      </Section>
    </div>
  );
}
