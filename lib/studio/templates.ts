// Starting points for an empty project: each template is a pure function returning a fresh Bundle.
// Every model is scripted, so a run finishes without any provider or API key; scripts loop
// (scriptLoopFrom) so a demo answers for as long as it is used, and replies stream over a second or so.
import type { EvalSuite } from "@/lib/evals/eval-shapes";
import { assetExampleBundle, type Bundle, cloneExample, minimalChatBundle } from "@/lib/standard";

export interface StudioTemplate {
  id: "chat" | "asset" | "named-workers" | "refund-desk";
  label: string;
  description: string;
  build(): Bundle;
  /** Eval suites that ship with the template (the Evals view offers to add them once it is saved). */
  evalSuites?: () => EvalSuite[];
}

export const DEMO_MODELS_NOTE = "Demo models (scripted): no provider needed";

/**
 * The status line after a template replaced the canvas: what it replaced, if anything, and that one
 * Undo (`undoKeys`, "Ctrl+Z") brings it back, since the menu replaces the canvas without asking.
 */
export function templateAppliedText(
  templateLabel: string,
  replacedNodes: number,
  undoKeys: string,
  hasEvalSuites = false,
): string {
  const replaced =
    replacedNodes === 0
      ? ""
      : ` It replaced ${replacedNodes} node${replacedNodes === 1 ? "" : "s"}; Undo (${undoKeys}) brings ${replacedNodes === 1 ? "it" : "them"} back.`;
  const evals = hasEvalSuites ? " Save, then open Evals to add its eval suite." : "";
  return `New from template: ${templateLabel}.${replaced} ${DEMO_MODELS_NOTE}.${evals}`;
}

/** How long a demo reply takes to stream in: long enough to watch, short enough not to wait for. */
const CHAT_REPLY_MS = 1_500;
const WORKER_STEP_MS = 900;

/**
 * (a) One ai_human agent, one prompt, one scripted model that holds a conversation: a greeting, then
 * three varied replies that loop for as long as the user writes, each streamed over about 1.5 s.
 */
export function chatTemplate(): Bundle {
  const bundle = cloneExample(minimalChatBundle);
  bundle.models = bundle.models.map((model) => ({
    ...model,
    script: [
      {
        text: 'Hello! I am a demo assistant playing a script, so no provider or key is needed. You said: "{{input}}". Write again: every reply streams in, and the script loops so we can keep talking.',
        delayMs: CHAT_REPLY_MS,
      },
      {
        text: 'Good question. For "{{input}}" I would start small: split it into steps, try the simplest one first, and check the result before the next.',
        delayMs: CHAT_REPLY_MS,
      },
      {
        text: 'Noted: "{{input}}". A real model would think about it here; this demo shows streaming, turn-taking and the history of the thread instead. Switch the model to a real provider in Models for real answers.',
        delayMs: CHAT_REPLY_MS,
      },
      {
        text: 'Thanks. You wrote "{{input}}", and the thread keeps every message of our conversation. You can stop a reply while it streams.',
        delayMs: CHAT_REPLY_MS,
      },
    ],
    scriptLoopFrom: 1,
  }));
  return bundle;
}

/**
 * (b) The spec's asset example: an orchestrator calling the asset_subagent worker/reviewer pair. The
 * scripts loop (each new message briefs a new asset) and every step takes a moment, so it can be watched.
 */
export function assetTemplate(): Bundle {
  const bundle = cloneExample(assetExampleBundle);
  bundle.models = bundle.models.map((model) => ({
    ...model,
    script: model.script?.map((step) => ({ ...step, delayMs: WORKER_STEP_MS })),
    scriptLoopFrom: 0,
  }));
  return bundle;
}

/** A resumable, blocking subagent branch whose instances receive messages on side A. */
const resumableBranch = (name: string) => ({
  name,
  blocking: true,
  resumable: { receives_messages: "side_a" as const, maxInstances: 2 },
});

/**
 * (c) A team lead with two named workers of different kinds: "ada", a writer (a writer/editor pair
 * that drafts, hears one note, revises and publishes) and "grace", a critic (a critic/fact-checker
 * pair that reviews and files its review). The lead creates both by name on the first message and
 * messages them again on every later one. Each session ends with its sessionStop call, and limits
 * (maxSessionTurns, maxSteps) stop a session that would not.
 */
export function namedWorkersTemplate(): Bundle {
  const step = (text: string) => ({ text, delayMs: WORKER_STEP_MS });
  return {
    agents: [
      {
        name: "team_lead",
        title: "Team lead",
        description: "Runs a writer and a critic by name and messages them again for revisions.",
        sideA: { label: "Lead", prompt: "lead_chat" },
      },
      {
        name: "writer",
        type: "dual_ai",
        title: "Writer",
        description: "Drafts a short piece, takes one editor's note, revises and publishes.",
        exposeAsTool: true,
        toolDescription: "Write a short piece from a brief; message it again to revise.",
        maxSessionTurns: 4,
        sideA: { label: "Writer", prompt: "writer_draft", maxSteps: 3 },
        sideB: {
          label: "Editor",
          prompt: "writer_edit",
          maxSteps: 3,
          sessionStop: { name: "publish_draft", messageProperty: "text" },
        },
      },
      {
        name: "critic",
        type: "dual_ai",
        title: "Critic",
        description: "Reviews a piece; a fact-checker files the review.",
        exposeAsTool: true,
        toolDescription: "Review a piece of writing and file the review.",
        maxSessionTurns: 3,
        sideA: { label: "Critic", prompt: "critic_review", maxSteps: 3 },
        sideB: {
          label: "Fact-checker",
          prompt: "critic_check",
          maxSteps: 3,
          sessionStop: { name: "file_review", messageProperty: "review" },
        },
      },
    ],
    prompts: [
      {
        name: "lead_chat",
        toolDescription: "Lead a writer and a critic.",
        prompt:
          "You lead a small team. Create the writer and the critic by name with subagent_create on the first request, then send them each later request with subagent_message, and report what they return.",
        model: "lead_model",
        includeChat: true,
        tools: [resumableBranch("writer"), resumableBranch("critic")],
      },
      {
        name: "writer_draft",
        toolDescription: "Draft and revise a short piece.",
        prompt: "You write short, clear pieces from a brief, and revise them when the editor asks.",
        model: "writer_model",
        includeChat: true,
      },
      {
        name: "writer_edit",
        toolDescription: "Edit a draft and publish it when it is ready.",
        prompt: "You edit drafts. Give one concrete note; when the revision is good, call publish_draft.",
        model: "editor_model",
        includeChat: true,
      },
      {
        name: "critic_review",
        toolDescription: "Review a piece of writing.",
        prompt: "You review writing: what works, what does not, and one suggestion.",
        model: "critic_model",
        includeChat: true,
      },
      {
        name: "critic_check",
        toolDescription: "Check a review and file it.",
        prompt: "You check the critic's review for accuracy, then call file_review with it.",
        model: "checker_model",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "lead_model",
        provider: "scripted",
        model: "scripted",
        script: [
          {
            toolCalls: [
              {
                name: "subagent_create",
                args: { subagent: "writer", name: "ada", message: "Write a short piece about: {{input}}" },
              },
            ],
          },
          {
            toolCalls: [
              {
                name: "subagent_create",
                args: { subagent: "critic", name: "grace", message: "Review this piece: {{tool_result}}" },
              },
            ],
          },
          step(
            "The writer published and the critic filed a review. Here is what Grace found: {{tool_result}}",
          ),
          {
            toolCalls: [{ name: "subagent_message", args: { name: "ada", message: "Revise it: {{input}}" } }],
          },
          {
            toolCalls: [
              {
                name: "subagent_message",
                args: { name: "grace", message: "Review the revision: {{tool_result}}" },
              },
            ],
          },
          step("Revised and reviewed again. Grace's notes on the new version: {{tool_result}}"),
          {
            toolCalls: [
              { name: "subagent_message", args: { name: "ada", message: "Another pass, please: {{input}}" } },
            ],
          },
          {
            toolCalls: [
              {
                name: "subagent_message",
                args: { name: "grace", message: "Is this pass better? {{tool_result}}" },
              },
            ],
          },
          step("Another round is done: Ada reworked it and Grace read it once more. {{tool_result}}"),
        ],
        scriptLoopFrom: 3,
      },
      {
        name: "writer_model",
        provider: "scripted",
        model: "scripted",
        script: [
          step("First draft: {{input}}"),
          step("Revised draft: the same piece with a punchier opening and a tighter middle."),
          step("New pass on the brief: {{input}}"),
          step("Reworked: shorter lines, and the close now echoes the first image."),
        ],
        scriptLoopFrom: 0,
      },
      {
        name: "editor_model",
        provider: "scripted",
        model: "scripted",
        script: [
          step("Good start. Make the opening punchier."),
          {
            delayMs: WORKER_STEP_MS,
            toolCalls: [{ name: "publish_draft", args: { text: "Published. {{input}}" } }],
          },
        ],
        scriptLoopFrom: 0,
      },
      {
        name: "critic_model",
        provider: "scripted",
        model: "scripted",
        script: [
          step("Review: clear and well paced; the ending could be stronger."),
          step("Review: the new opening lands; the middle still drags a little."),
          step("Review: tighter now. One suggestion: end on the image the piece opens with."),
        ],
        scriptLoopFrom: 0,
      },
      {
        name: "checker_model",
        provider: "scripted",
        model: "scripted",
        script: [
          {
            delayMs: WORKER_STEP_MS,
            toolCalls: [{ name: "file_review", args: { review: "Checked and filed. {{input}}" } }],
          },
        ],
        scriptLoopFrom: 0,
      },
    ],
    tools: [],
  };
}

/**
 * The support agent's scripted answer once it has the order number: the text the refund desk's suite
 * checks. docs/evals.md "Break it" edits this sentence in the studio to make two cases regress.
 */
export const REFUND_REPLY = "Thank you. I have issued a full refund; it reaches your card within 5 days.";

/**
 * (d) A support agent with an eval suite (docs/evals.md): it asks for the order number, then refunds.
 * A scripted customer plays the simulated user and a scripted judge scores politeness, so the suite
 * runs with no provider and passes; one edit of the support model's script makes two cases regress.
 */
export function refundDeskTemplate(): Bundle {
  return {
    agents: [
      {
        name: "support",
        title: "Refund desk",
        description: "Answers customers whose order went wrong: asks for the order number, then refunds.",
        sideA: { label: "Support", prompt: "support_chat" },
      },
    ],
    prompts: [
      {
        name: "support_chat",
        toolDescription: "Handle a refund request.",
        prompt:
          "You are the refund desk of a small shop. Ask for the order number if you do not have it, then refund the order and say when the money arrives.",
        model: "support_model",
        includeChat: true,
      },
    ],
    models: [
      {
        name: "support_model",
        provider: "scripted",
        model: "scripted",
        script: [
          { text: "I am sorry to hear that. What is your order number?", delayMs: 300 },
          { text: REFUND_REPLY, delayMs: 300 },
        ],
        scriptLoopFrom: 1,
      },
      {
        name: "customer_model",
        provider: "scripted",
        model: "scripted",
        script: [
          { text: "My blender arrived broken and I want my money back." },
          { text: "It is order 5678." },
          { text: "Thanks, goodbye." },
        ],
        scriptLoopFrom: 2,
      },
      {
        name: "judge_model",
        provider: "scripted",
        model: "scripted",
        script: [
          {
            text: '{ "score": 0.9, "reason": "Polite, asks only for what it needs and moves the refund forward." }',
          },
        ],
        scriptLoopFrom: 0,
      },
    ],
    tools: [],
  };
}

/** The refund desk's suite: two fixed conversations, a simulated customer, and a judge on every case. */
export function refundDeskSuites(): EvalSuite[] {
  return [
    {
      name: "refunds",
      agent_id: "support",
      assertions: [
        { type: "not_contains", value: "(script exhausted)", target: "transcript" },
        {
          type: "judge",
          model: "judge_model",
          rubric: "The agent is polite and moves the refund forward.",
          threshold: 0.7,
        },
      ],
      cases: [
        {
          name: "broken blender",
          input: { messages: ["My blender arrived broken.", "Order 1234."] },
          assertions: [
            { type: "contains", value: "full refund", target: "final_reply" },
            { type: "max_turns", value: 4 },
          ],
        },
        {
          name: "asks for the order number",
          input: { messages: ["I want my money back."] },
          assertions: [{ type: "contains", value: "order number", target: "final_reply" }],
        },
        {
          name: "simulated customer",
          input: {
            simulated_user: {
              prompt:
                "You are a customer whose blender arrived broken. Give order 5678 when asked, and say goodbye once you are refunded.",
              model: "customer_model",
              max_turns: 3,
              stop: "goodbye",
            },
          },
          assertions: [{ type: "contains", value: "full refund", target: "transcript" }],
        },
      ],
    },
  ];
}

export const STUDIO_TEMPLATES: readonly StudioTemplate[] = [
  {
    id: "chat",
    label: "Chat assistant",
    description: "One ai_human agent with one prompt: a looping demo conversation with streamed replies.",
    build: chatTemplate,
  },
  {
    id: "asset",
    label: "Orchestrator + asset subagent",
    description: "The spec's example: a worker/reviewer dual_ai called as a subagent.",
    build: assetTemplate,
  },
  {
    id: "named-workers",
    label: "Team lead + named workers",
    description: "A writer and a critic, created by name and messaged again on every request.",
    build: namedWorkersTemplate,
  },
  {
    id: "refund-desk",
    label: "Refund desk + eval suite",
    description: "A support agent with a suite of cases (fixed, simulated customer, judge) to run in Evals.",
    build: refundDeskTemplate,
    evalSuites: refundDeskSuites,
  },
];
