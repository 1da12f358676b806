"use client";
// An accessible tablist (arrow keys, Home and End move between tabs); only the active panel is rendered,
// so a panel's data loads when its tab opens.
import { type KeyboardEvent, type ReactNode, useRef } from "react";

export interface InspectorTab<Id extends string> {
  id: Id;
  label: string;
}

export function InspectorTabs<Id extends string>({
  label,
  tabs,
  active,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly InspectorTab<Id>[];
  active: Id;
  onChange: (id: Id) => void;
  children: ReactNode;
}) {
  const buttons = useRef(new Map<Id, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.id === active);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    buttons.current.get(tab.id)?.focus();
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="flex gap-1 border-b border-border px-3 pt-1"
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`inspector-tab-${tab.id}`}
            aria-selected={tab.id === active}
            aria-controls={`inspector-panel-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            onClick={() => onChange(tab.id)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${
              tab.id === active
                ? "border-accent font-medium"
                : "border-transparent text-muted hover:text-inherit"
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`inspector-panel-${active}`}
        aria-labelledby={`inspector-tab-${active}`}
        className="flex min-h-0 flex-1 flex-col"
      >
        {children}
      </div>
    </div>
  );
}
