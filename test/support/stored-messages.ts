// Builders for stored messages in engine unit tests.
import type { Side, StoredMessage, StoredToolCall } from "../../runtime/store/messages";

let counter = 0;

export function storedMessage(
  overrides: Partial<StoredMessage> & Pick<StoredMessage, "role">,
): StoredMessage {
  counter += 1;
  return {
    id: `m${counter}`,
    seq: counter,
    side: null,
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    tool_status: null,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: {},
    subagent_id: null,
    attachments: [],
    prompt: null,
    created_at: counter,
    ...overrides,
  };
}

export function toolCall(id: string, name: string, args: unknown = {}): StoredToolCall {
  return { id, type: "function", function: { name, arguments: JSON.stringify(args) } };
}

export function conversation(
  ...messages: Array<Partial<StoredMessage> & Pick<StoredMessage, "role">>
): StoredMessage[] {
  return messages.map((message, index) => storedMessage({ seq: index + 1, ...message }));
}

export const A: Side = "a";
export const B: Side = "b";
