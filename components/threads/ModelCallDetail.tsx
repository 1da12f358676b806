// One model call in full: the request's messages with their roles, the tools offered, and the response.
import type { LoggedToolCall, ModelCallLog } from "@/lib/contracts/thread-logs";
import { plural } from "@/lib/text/plural";
import { formatJson, messageContentText } from "./inspect-format";

function ToolCallList({ calls }: { calls: LoggedToolCall[] }) {
  return (
    <ul className="flex flex-col gap-1">
      {calls.map((call, index) => (
        <li key={call.id ?? index} className="rounded border border-border px-2 py-1">
          <span className="font-mono text-xs">{call.name}</span>
          <pre className="whitespace-pre-wrap break-words text-xs text-muted">{formatJson(call.args)}</pre>
        </li>
      ))}
    </ul>
  );
}

export function ModelCallDetail({ call }: { call: ModelCallLog }) {
  const messages = call.request?.messages ?? [];
  const tools = call.request?.tools ?? [];
  return (
    <div className="flex flex-col gap-3 border-t border-border px-3 py-2 text-sm">
      <section aria-label="Request">
        <h3 className="mb-1 text-xs font-medium uppercase text-muted">
          Request · {plural(messages.length, "message")}
        </h3>
        <ol className="flex flex-col gap-1.5">
          {messages.map((message, index) => (
            <li
              // Logged messages have no ids; their order is fixed.
              // biome-ignore lint/suspicious/noArrayIndexKey: the request is immutable.
              key={index}
              data-testid="request-message"
              data-role={message.role}
              className="rounded border border-border px-2 py-1"
            >
              <div className="text-xs text-muted">
                {message.role}
                {message.toolName ? ` · ${message.toolName}` : ""}
                {message.isError ? " · error" : ""}
              </div>
              <p className="whitespace-pre-wrap break-words">{messageContentText(message.content)}</p>
              {message.toolCalls?.length ? <ToolCallList calls={message.toolCalls} /> : null}
            </li>
          ))}
        </ol>
        <p className="mt-1 text-xs text-muted">
          Tools offered:{" "}
          {tools.length === 0 ? (
            "none"
          ) : (
            <span className="font-mono">{tools.map((tool) => tool.name).join(", ")}</span>
          )}
        </p>
      </section>
      <section aria-label="Response">
        <h3 className="mb-1 text-xs font-medium uppercase text-muted">Response</h3>
        {call.response ? (
          <>
            {call.response.text ? (
              <p className="whitespace-pre-wrap break-words">{call.response.text}</p>
            ) : null}
            {call.response.toolCalls?.length ? <ToolCallList calls={call.response.toolCalls} /> : null}
            {!call.response.text && !call.response.toolCalls?.length ? (
              <p className="text-muted">(empty)</p>
            ) : null}
          </>
        ) : (
          <p className="text-danger">{call.error ?? "No response."}</p>
        )}
      </section>
    </div>
  );
}
