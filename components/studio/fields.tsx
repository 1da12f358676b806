"use client";
// Labelled inspector inputs. Each shows the live compile's messages for its field underneath (and,
// for text that must parse first — lists, env maps, JSON — its own parse error), tied to the input
// with aria-invalid and aria-describedby, so the user sees what is wrong while typing.
// `field` names the spec field a control edits (`agent.icon`, `prompt.reasoning.effort`); it is
// rendered as data-field so a test can check that every field of every definition has a control.
// Text that does not parse yet is not in the document: inside a `FieldScope` (the inspector), it is
// recorded in the studio store as an unapplied field, listed in Problems and typed back into its
// field when the node is inspected again.
import { createContext, type ReactNode, useContext, useEffect, useId, useMemo, useState } from "react";
import {
  envLinesCodec,
  type HeaderValueInput,
  headersCodec,
  jsonCodec,
  listCodec,
  type TextCodec,
} from "@/lib/studio/field-text";
import type { StudioStore } from "@/lib/studio/studio-store";
import { unappliedFieldKey } from "@/lib/studio/unapplied-fields";

/** The node or edge the controls below edit, and the titles of the groups around them. */
interface FieldScopeValue {
  store: StudioStore;
  itemId: string;
  groups: readonly string[];
}

const FieldScopeContext = createContext<FieldScopeValue | null>(null);

/** Tells the fields below which node or edge they edit, so their unapplied text is kept per item. */
export function FieldScope({
  store,
  itemId,
  children,
}: {
  store: StudioStore;
  itemId: string;
  children: ReactNode;
}) {
  const scope = useMemo(() => ({ store, itemId, groups: [] }), [store, itemId]);
  return <FieldScopeContext.Provider value={scope}>{children}</FieldScopeContext.Provider>;
}

function FieldMessages({
  id,
  messages,
  tone,
}: {
  id: string;
  messages: string[];
  tone: "error" | "warning";
}) {
  if (!messages.length) return null;
  return (
    <ul
      id={id}
      data-tone={tone}
      className={`text-[11px] wrap-anywhere ${tone === "error" ? "text-danger" : "text-warning"}`}
    >
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

// A field with an error is invalid (red border); one with only a warning is valid, with a warning border.
const INPUT =
  "w-full rounded border border-border bg-surface px-2 py-1 text-xs data-[warned=true]:border-warning aria-[invalid=true]:border-danger";

interface FieldProps<Value> {
  /** The spec field this control edits, e.g. `agent.sideA.maxSteps` → "agent.side.maxSteps". */
  field?: string;
  label: string;
  value: Value;
  onChange(value: Value): void;
  errors?: string[];
  /** The live compile's warnings for the field: shown in the warning colour; the field stays valid. */
  warnings?: string[];
  hint?: string;
}

/** The label, the control and its messages; hands the control the ids and aria attributes to use. */
function LabelledField({
  field,
  label,
  errors,
  warnings = [],
  hint,
  children,
}: {
  field?: string;
  label: string;
  errors: string[];
  warnings?: string[];
  hint?: string;
  children(control: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
    "data-warned": boolean;
    className: string;
  }): ReactNode;
}) {
  const id = useId();
  const describedBy = [
    errors.length ? `${id}-errors` : "",
    warnings.length ? `${id}-warnings` : "",
    hint ? `${id}-hint` : "",
  ].filter(Boolean);
  return (
    <div className="flex flex-col gap-0.5" data-field={field}>
      <label htmlFor={id} className="text-[11px] font-medium text-muted">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": errors.length > 0,
        "aria-describedby": describedBy.length ? describedBy.join(" ") : undefined,
        "data-warned": warnings.length > 0,
        className: INPUT,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-[10px] wrap-anywhere text-muted">
          {hint}
        </p>
      ) : null}
      <FieldMessages id={`${id}-errors`} messages={errors} tone="error" />
      <FieldMessages id={`${id}-warnings`} messages={warnings} tone="warning" />
    </div>
  );
}

export function TextField({
  field,
  label,
  value,
  onChange,
  errors = [],
  warnings,
  hint,
  multiline = false,
  placeholder,
  suggestions,
}: FieldProps<string> & {
  multiline?: boolean;
  placeholder?: string;
  /** A pick list offered while typing (a datalist); any other text can still be typed. */
  suggestions?: readonly string[];
}) {
  const listId = useId();
  return (
    <LabelledField field={field} label={label} errors={errors} warnings={warnings} hint={hint}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            rows={5}
            value={value}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <>
            <input
              {...control}
              value={value}
              placeholder={placeholder}
              list={suggestions?.length ? listId : undefined}
              onChange={(event) => onChange(event.target.value)}
            />
            {suggestions?.length ? (
              <datalist id={listId}>
                {suggestions.map((option) => (
                  <option key={option} value={option} />
                ))}
              </datalist>
            ) : null}
          </>
        )
      }
    </LabelledField>
  );
}

/** A number input; an empty box means "not set" (`undefined`). `step="any"` for prices. */
export function NumberField({
  field,
  label,
  value,
  onChange,
  errors = [],
  warnings,
  hint,
  step = "1",
}: FieldProps<number | undefined> & { step?: "1" | "any" }) {
  return (
    <LabelledField field={field} label={label} errors={errors} warnings={warnings} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="number"
          step={step}
          value={value ?? ""}
          onChange={(event) => onChange(event.target.value === "" ? undefined : Number(event.target.value))}
        />
      )}
    </LabelledField>
  );
}

/**
 * An optional boolean: "default" leaves the field out (the spec's default applies), yes/no store it.
 * A select rather than a checkbox, so a definition that spells out the default keeps it.
 */
export function OptionalBooleanField({
  field,
  label,
  value,
  onChange,
  errors = [],
  warnings,
  hint,
  defaultValue,
}: FieldProps<boolean | undefined> & { defaultValue: boolean }) {
  const current = value === undefined ? "" : value ? "yes" : "no";
  return (
    <LabelledField field={field} label={label} errors={errors} warnings={warnings} hint={hint}>
      {(control) => (
        <select
          {...control}
          value={current}
          onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value === "yes")}
        >
          <option value="">Default ({defaultValue ? "yes" : "no"})</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
      )}
    </LabelledField>
  );
}

export function SelectField({
  field,
  label,
  value,
  onChange,
  options,
  errors = [],
  warnings,
  hint,
}: FieldProps<string> & { options: readonly { value: string; label: string }[] }) {
  // A value written elsewhere (code pane, import) that is not among the options stays visible.
  const shown =
    value === "" || options.some((option) => option.value === value)
      ? options
      : [...options, { value, label: `${value} (not found)` }];
  return (
    <LabelledField field={field} label={label} errors={errors} warnings={warnings} hint={hint}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          {shown.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/**
 * Text the user types that must parse before it becomes a value (a list, an env map, headers, JSON).
 * The draft is kept while it does not parse, with the parse error shown; a change from elsewhere
 * (undo, the code pane) replaces the draft.
 */
function CodecField<Value>({
  codec,
  rows,
  ...props
}: FieldProps<Value | undefined> & { codec: TextCodec<Value>; rows?: number }) {
  const { field, label, value, onChange, errors = [], warnings, hint } = props;
  const formatted = codec.format(value);
  const scope = useContext(FieldScopeContext);
  const key = scope ? unappliedFieldKey(scope.itemId, scope.groups, label) : null;
  // Text left unapplied the last time this node was inspected comes back, while the document still
  // holds the value it was typed over.
  const [kept] = useState(() =>
    scope?.store
      .getState()
      .unappliedFields.find((unapplied) => unapplied.key === key && unapplied.appliedText === formatted),
  );
  const [draft, setDraft] = useState(kept?.text ?? formatted);
  const [shownValue, setShownValue] = useState(formatted);
  const [parseError, setParseError] = useState<string | null>(kept?.message ?? null);
  if (formatted !== shownValue) {
    setShownValue(formatted);
    setDraft(formatted);
    setParseError(null);
  }
  // A change from elsewhere (undo, the code pane) replaced the draft: it is no longer unapplied.
  useEffect(() => {
    if (!scope || key === null) return;
    const unapplied = scope.store.getState().unappliedFields.find((candidate) => candidate.key === key);
    if (unapplied && unapplied.appliedText !== formatted) scope.store.getState().clearUnappliedField(key);
  }, [scope, key, formatted]);
  const change = (text: string) => {
    setDraft(text);
    const parsed = codec.parse(text);
    if (!parsed.ok) {
      setParseError(parsed.message);
      if (scope && key !== null) {
        scope.store.getState().setUnappliedField({
          key,
          itemId: scope.itemId,
          label,
          text,
          message: parsed.message,
          appliedText: formatted,
        });
      }
      return;
    }
    setParseError(null);
    if (scope && key !== null) scope.store.getState().clearUnappliedField(key);
    setShownValue(codec.format(parsed.value));
    onChange(parsed.value);
  };
  const messages = parseError ? [`Not applied (not saved): ${parseError}`, ...errors] : errors;
  return (
    <LabelledField field={field} label={label} errors={messages} warnings={warnings} hint={hint}>
      {(control) =>
        rows ? (
          <textarea
            {...control}
            rows={rows}
            spellCheck={false}
            className={`${control.className} font-mono`}
            value={draft}
            onChange={(event) => change(event.target.value)}
          />
        ) : (
          <input {...control} value={draft} onChange={(event) => change(event.target.value)} />
        )
      }
    </LabelledField>
  );
}

/** A list of names, comma-separated; empty means "not set". */
export function ListField(props: FieldProps<string[] | undefined>) {
  return <CodecField {...props} codec={listCodec} hint={props.hint ?? "Comma-separated."} />;
}

/** A string → string map written one `NAME=value` per line; empty means "not set". */
export function KeyValueField(props: FieldProps<Record<string, string> | undefined>) {
  return (
    <CodecField {...props} codec={envLinesCodec} rows={3} hint={props.hint ?? "One NAME=value per line."} />
  );
}

/** HTTP headers, one `Name: value` per line; `${ENV_NAME}` reads the value from the environment. */
export function HeadersField(props: FieldProps<Record<string, HeaderValueInput> | undefined>) {
  return (
    <CodecField
      {...props}
      codec={headersCodec}
      rows={3}
      hint={
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is the syntax the user types, not a template.
        props.hint ?? "One Name: value per line. Secrets by env name: Authorization: Bearer ${MY_API_TOKEN}"
      }
    />
  );
}

const OBJECT_JSON = jsonCodec("object");
const ARRAY_JSON = jsonCodec("array");

/** Any JSON value of the expected shape; an empty box means "not set". */
export function JsonField<Value>({
  expect,
  ...props
}: FieldProps<Value | undefined> & { expect: "object" | "array" }) {
  return (
    <CodecField<Value>
      {...props}
      codec={(expect === "array" ? ARRAY_JSON : OBJECT_JSON) as TextCodec<Value>}
      rows={6}
    />
  );
}

export function FieldGroup({ title, children }: { title: string; children: ReactNode }) {
  const outer = useContext(FieldScopeContext);
  // The group's title tells apart same-labelled fields (side A's and side B's "Env").
  const scope = useMemo(
    () => (outer ? { ...outer, groups: [...outer.groups, title] } : null),
    [outer, title],
  );
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded border border-border p-2">
      <legend className="px-1 text-[11px] font-semibold wrap-anywhere">{title}</legend>
      <FieldScopeContext.Provider value={scope}>{children}</FieldScopeContext.Provider>
    </fieldset>
  );
}

/** A small text button inside the inspector (add a part, remove side B …). */
export function InlineButton({ onClick, children }: { onClick(): void; children: ReactNode }) {
  return (
    <button type="button" className="text-left text-xs underline" onClick={onClick}>
      {children}
    </button>
  );
}
