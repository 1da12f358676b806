// What a viewer and a runner see, end to end, on a server and database of their own (accounts on):
// the admin, the two members, a project with a run waiting for an approval, two versions and an
// eval suite are made through the API; then each signs in and walks every page — home, project,
// studio, thread, evals, analytics, settings — checking that each control the role cannot use is
// disabled and carries the reason (as its accessible description and a tooltip), and that what the
// role may do stays enabled. At 1280, 1440 and 1920 wide with axe; the viewer's studio and thread
// page go to the gallery (e2e-artifacts/gallery, copied to docs/screenshots by hand).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, request as playwrightRequest, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { atEachWidth } from "../test/support/e2e-widths";
import { startTestServer, type TestServer } from "../test/support/server";

const GALLERY = "e2e-artifacts/gallery";
const PASSWORD = "correct horse battery";
const ADMIN = { name: "Ada Admin", email: "ada@example.com" };
const VIEWER = { name: "Vic Viewer", email: "vic@example.com" };
const RUNNER = { name: "Rua Runner", email: "rua@example.com" };

const VIEWER_CANT = (verb: string, role = "runner") =>
  `Viewers can't ${verb} — ask a project owner for the ${role} role.`;
const RUNNER_CANT = (verb: string, role = "editor") =>
  `Runners can't ${verb} — ask a project owner for the ${role} role.`;

// Each test walks a dozen pages at three widths with axe: minutes, not the default one.
test.describe.configure({ mode: "serial", timeout: 300_000 });

let server: TestServer;
let drop: () => Promise<void>;
const made = { projectId: "", threadId: "", suiteId: "" };

function definitions(prompt: string) {
  return {
    agents: [{ name: "assistant", type: "ai_human", sideA: { prompt: "chat" } }],
    prompts: [
      {
        name: "chat",
        toolDescription: "c",
        prompt,
        model: "demo",
        includeChat: true,
        tools: [{ name: "write_file", requiresApproval: true }],
      },
    ],
    models: [
      {
        name: "demo",
        provider: "scripted",
        model: "s",
        script: [
          { toolCalls: [{ name: "write_file", args: { path: "/a.md", content: "asked" } }] },
          { text: "done" },
        ],
      },
    ],
    tools: [{ name: "write_file", kind: "builtin", builtin: "fs_write", description: "Write a file." }],
  };
}

test.beforeAll(async () => {
  const database = await createIsolatedDatabaseConfig();
  drop = database.drop;
  server = await startTestServer(database.env);
  const base = server.baseUrl;
  const api = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  try {
    const ok = async (response: Promise<import("@playwright/test").APIResponse>) => {
      const answered = await response;
      expect(answered.ok(), `${answered.url()}: ${await answered.text()}`).toBe(true);
      return (await answered.json().catch(() => ({}))) as Record<string, unknown>;
    };
    // The context keeps the admin's session cookie from setup on.
    await ok(api.post("/api/auth/setup", { data: { ...ADMIN, password: PASSWORD } }));
    const ids: Record<string, string> = {};
    for (const who of [VIEWER, RUNNER]) {
      const created = await ok(api.post("/api/users", { data: { ...who, password: PASSWORD } }));
      ids[who.email] = (created.user as { id: string }).id;
    }
    made.projectId = String((await ok(api.post("/api/projects", { data: { name: "Team project" } }))).id);
    const project = `/api/projects/${made.projectId}`;
    // Two versions, so the older one offers Restore.
    await ok(api.put(`${project}/definitions`, { data: definitions("Be brief.") }));
    await ok(api.put(`${project}/definitions`, { data: definitions("Be very brief.") }));
    await ok(api.put(`${project}/members/${ids[VIEWER.email]}`, { data: { role: "viewer" } }));
    await ok(api.put(`${project}/members/${ids[RUNNER.email]}`, { data: { role: "runner" } }));
    made.threadId = String(
      (
        await ok(
          api.post("/api/threads", {
            data: { project_id: made.projectId, agent_id: "assistant", message: "write it" },
          }),
        )
      ).threadId,
    );
    const suite = await ok(
      api.post(`${project}/evals`, {
        data: {
          name: "smoke",
          agent_id: "assistant",
          cases: [{ name: "first case", input: { messages: ["Hello"] }, assertions: [] }],
          assertions: [],
        },
      }),
    );
    made.suiteId = String((suite.suite as { id?: string } | undefined)?.id ?? suite.id);
    // The run waits for its approval before anyone looks.
    await expect
      .poll(
        async () =>
          (
            (await ok(api.get(`/api/threads/${made.threadId}/approvals?state=pending`)))
              .approvals as unknown[]
          ).length,
        { timeout: 20_000 },
      )
      .toBe(1);
  } finally {
    await api.dispose();
  }
});

test.afterAll(async () => {
  await server?.stop();
  await drop?.();
});

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

async function signIn(page: Page, email: string) {
  await page.goto(`${server.baseUrl}/login`);
  const form = page.getByRole("form", { name: "Sign in with email" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-menu")).toBeVisible();
}

/**
 * Disabled, and saying why: as its description (screen readers; `among` when the control is also
 * described by another hint) and, with `tooltip`, in the tooltip of its focusable wrapper.
 */
async function expectRefused(control: Locator, reason: string, { tooltip = false, among = false } = {}) {
  await expect(control).toBeDisabled();
  await expect(control).toHaveAccessibleDescription(
    among ? new RegExp(reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : reason,
  );
  if (tooltip) {
    await control.locator("xpath=..").focus();
    await expect(control.page().getByRole("tooltip")).toHaveText(reason);
    await control.page().keyboard.press("Escape");
  }
}

/** Every width with axe, and the gallery's copy at 1440 (with `reasonOf`'s tooltip open). */
async function atEachWidthWithAxe(page: Page, gallery?: { file: string; reasonOf: Locator }) {
  await atEachWidth(page, async (width) => {
    await expectNoAxeViolations(page);
    if (gallery && width === 1440) {
      await page.mouse.move(0, 0);
      await gallery.reasonOf.locator("xpath=..").focus();
      await expect(page.getByRole("tooltip")).toBeVisible();
      await page.screenshot({ path: `${GALLERY}/${gallery.file}`, animations: "disabled", caret: "hide" });
      await page.keyboard.press("Escape");
    }
  });
}

test("a viewer reads everything and is told why each change is not theirs", async ({ page }) => {
  const base = server.baseUrl;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, VIEWER.email);

  // Home: the project is listed; renaming and deleting are an editor's and an owner's.
  await page.goto(`${base}/`);
  await expectRefused(
    page.getByRole("button", { name: "Rename Team project" }),
    VIEWER_CANT("rename the project", "editor"),
    {
      tooltip: true,
    },
  );
  await expectRefused(
    page.getByRole("button", { name: "Delete Team project" }),
    VIEWER_CANT("delete the project", "owner"),
  );
  await atEachWidthWithAxe(page);

  // The project: no runs started, no approvals answered, no batch replayed, nothing imported or restored.
  await page.goto(`${base}/projects/${made.projectId}`);
  await expectRefused(
    page.getByRole("region", { name: "Threads" }).getByRole("button", { name: "Run", exact: true }),
    VIEWER_CANT("start runs"),
  );
  await expectRefused(
    page.getByRole("region", { name: "Replay runs" }).getByRole("button", { name: "Replay" }),
    VIEWER_CANT("start replay batches"),
    { among: true },
  );
  await expect(page.getByLabel("Import definitions")).toBeDisabled();
  await expect(page.getByRole("region", { name: "Import" })).toContainText("Viewers can't");
  await expectRefused(
    page.getByRole("listitem", { name: "Version 1" }).getByRole("button", { name: "Restore" }),
    VIEWER_CANT("restore versions", "editor"),
  );
  await expectRefused(
    page.getByRole("button", { name: "Approve" }).first(),
    VIEWER_CANT("approve or deny tool calls"),
  );
  await atEachWidthWithAxe(page);

  // The studio: Save and Run say why; Mod+S too.
  await page.goto(`${base}/projects/${made.projectId}/studio`);
  await expectRefused(
    page.getByRole("button", { name: "Save", exact: true }),
    VIEWER_CANT("save changes", "editor"),
    {
      tooltip: true,
    },
  );
  await expectRefused(page.getByRole("button", { name: "Run", exact: true }), VIEWER_CANT("start runs"));
  await page.getByRole("button", { name: "Version history" }).click();
  const history = page.getByRole("dialog", { name: "Version history" });
  await expectRefused(
    history.getByRole("listitem", { name: "Version 1" }).getByRole("button", { name: "Restore" }),
    VIEWER_CANT("restore versions", "editor"),
  );
  await page.keyboard.press("Escape");
  await atEachWidthWithAxe(page, {
    file: "28-role-viewer-studio.png",
    reasonOf: page.getByRole("button", { name: "Save", exact: true }),
  });

  // The thread: it reads the run; sending, stopping, terminating, approving, replaying, adding to a
  // suite are refused with the reason, and the per-message fork buttons are left out.
  await page.goto(`${base}/threads/${made.threadId}`);
  const composer = page.getByRole("textbox", { name: "Message" });
  await expect(composer).toBeDisabled();
  await expect(composer).toHaveAttribute("placeholder", VIEWER_CANT("send messages"));
  await expectRefused(page.getByRole("button", { name: "Send" }), VIEWER_CANT("send messages"), {
    tooltip: true,
  });
  await expectRefused(page.getByRole("button", { name: "Stop", exact: true }), VIEWER_CANT("stop threads"));
  await expectRefused(page.getByRole("button", { name: "Terminate" }), VIEWER_CANT("terminate threads"));
  const card = page.getByTestId("approval-card");
  await expectRefused(
    card.getByRole("button", { name: "Approve" }),
    VIEWER_CANT("approve or deny tool calls"),
  );
  await expectRefused(card.getByRole("button", { name: "Deny" }), VIEWER_CANT("approve or deny tool calls"));
  await expect(card.getByLabel(/^Arguments/)).toHaveAttribute("readonly", "");
  await expectRefused(page.getByRole("button", { name: "Replay…" }), VIEWER_CANT("replay threads"));
  await expectRefused(
    page.getByRole("button", { name: "Add to eval suite…" }),
    VIEWER_CANT("add threads to eval suites", "editor"),
  );
  await expect(page.getByRole("button", { name: "Fork from here" })).toHaveCount(0);
  await atEachWidthWithAxe(page, {
    file: "28b-role-viewer-thread.png",
    reasonOf: page.getByTestId("approval-card").getByRole("button", { name: "Approve" }),
  });

  // Evals: the suites and runs read; creating, editing and running refused.
  await page.goto(`${base}/projects/${made.projectId}/evals`);
  await expect(page.getByRole("link", { name: "smoke" })).toBeVisible();
  await expectRefused(
    page.getByRole("button", { name: "Create suite" }),
    VIEWER_CANT("create or edit eval suites", "editor"),
  );
  await atEachWidthWithAxe(page);
  await page.goto(`${base}/projects/${made.projectId}/evals/${made.suiteId}`);
  await expectRefused(page.getByRole("button", { name: "Run suite" }), VIEWER_CANT("run eval suites"));
  await expectRefused(
    page.getByRole("button", { name: "Edit as JSON" }),
    VIEWER_CANT("create or edit eval suites", "editor"),
  );
  await expectRefused(
    page.getByRole("button", { name: "Add case" }),
    VIEWER_CANT("create or edit eval suites", "editor"),
  );
  await atEachWidthWithAxe(page);

  // Analytics: read-only, the same for every role.
  await page.goto(`${base}/projects/${made.projectId}/analytics`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await atEachWidthWithAxe(page);

  // Settings: members listed but not changed; keys, credentials and the audit log are not theirs.
  await page.goto(`${base}/projects/${made.projectId}/settings/members`);
  await expect(page.getByRole("table", { name: "Members" })).toContainText(RUNNER.name);
  await expect(
    page.getByRole("form", { name: "Add member" }).getByRole("button", { name: "Add member" }),
  ).toBeDisabled();
  await atEachWidthWithAxe(page);
  await page.goto(`${base}/projects/${made.projectId}/settings/keys`);
  await expect(page.getByText("Only owners see this project's API keys")).toBeVisible();
  await page.goto(`${base}/projects/${made.projectId}/settings/credentials`);
  await expect(page.getByText(VIEWER_CANT("see the project's credentials", "editor"))).toBeVisible();
  await page.goto(`${base}/projects/${made.projectId}/settings/audit`);
  await expect(page.getByText("Only owners read the audit log")).toBeVisible();
  await expect(page.getByText(VIEWER_CANT("read the audit log", "owner"))).toBeVisible();
  await atEachWidthWithAxe(page);
});

test("a runner runs, messages and answers approvals, but does not save or edit suites", async ({ page }) => {
  const base = server.baseUrl;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, RUNNER.email);

  await page.goto(`${base}/`);
  await expectRefused(
    page.getByRole("button", { name: "Rename Team project" }),
    RUNNER_CANT("rename the project"),
  );

  await page.goto(`${base}/projects/${made.projectId}`);
  await expect(
    page.getByRole("region", { name: "Threads" }).getByRole("button", { name: "Run", exact: true }),
  ).toBeEnabled();
  await expectRefused(
    page.getByRole("listitem", { name: "Version 1" }).getByRole("button", { name: "Restore" }),
    RUNNER_CANT("restore versions"),
  );
  await atEachWidthWithAxe(page);

  await page.goto(`${base}/projects/${made.projectId}/studio`);
  await expectRefused(page.getByRole("button", { name: "Save", exact: true }), RUNNER_CANT("save changes"), {
    tooltip: true,
  });
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await atEachWidthWithAxe(page);

  // The thread: the runner's controls are live; adding to a suite is an editor's.
  await page.goto(`${base}/threads/${made.threadId}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Terminate" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Replay…" })).toBeEnabled();
  await expectRefused(
    page.getByRole("button", { name: "Add to eval suite…" }),
    RUNNER_CANT("add threads to eval suites"),
  );
  await expect(page.getByRole("button", { name: "Fork from here" }).first()).toBeAttached();
  const card = page.getByTestId("approval-card");
  await expect(card.getByRole("button", { name: "Deny" })).toBeEnabled();
  await atEachWidthWithAxe(page);
  // The server agrees: the runner's approval goes through.
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("approval-card")).toHaveCount(0, { timeout: 15_000 });

  await page.goto(`${base}/projects/${made.projectId}/evals/${made.suiteId}`);
  await expect(page.getByRole("button", { name: "Run suite" })).toBeEnabled();
  await expectRefused(
    page.getByRole("button", { name: "Edit as JSON" }),
    RUNNER_CANT("create or edit eval suites"),
  );
  await atEachWidthWithAxe(page);

  await page.goto(`${base}/projects/${made.projectId}/settings/audit`);
  await expect(page.getByText(RUNNER_CANT("read the audit log", "owner"))).toBeVisible();
});
