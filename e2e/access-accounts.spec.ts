// Accounts end to end, on a server and database of their own (setting accounts up makes every page
// need a sign-in, which the shared e2e server must not): the first admin at /setup, sign out and in
// (a wrong password refused), members (add, change role, remove), API keys (the secret shown once and
// working, revoked after a confirmation), credentials (names only, replaced, deleted), the audit log
// with a filter, a credential added and picked in the studio's model inspector, and a runner's studio with Save disabled and the reason. Every page at 1280, 1440
// and 1920 wide with axe; screenshots of the new pages in e2e-artifacts/.
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { atEachWidth } from "../test/support/e2e-widths";
import { startTestServer, type TestServer } from "../test/support/server";

// Copied by hand to docs/screenshots/ when these screens change (a test run never writes into docs/).
const SCREENSHOTS = "e2e-artifacts";
const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery" };
const RUNNER = { name: "Rita Runner", email: "rita@example.com", password: "staple battery horse" };
const SECRET_VALUE = "sk-e2e-credential-value-7Qx9";

test.describe.configure({ mode: "serial" });

let server: TestServer;
let drop: () => Promise<void>;
let projectId = "";

test.beforeAll(async () => {
  const database = await createIsolatedDatabaseConfig();
  drop = database.drop;
  server = await startTestServer({ ...database.env, TANDEM_SECRETS_KEY: randomBytes(32).toString("hex") });
});

test.afterAll(async () => {
  await server?.stop();
  await drop?.();
});

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

/** The browser's own cookies, sent as a same-origin request would (the server checks Origin). */
function api(page: Page): APIRequestContext {
  return page.request;
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${server.baseUrl}/login`);
  const form = page.getByRole("form", { name: "Sign in with email" });
  await form.getByLabel("Email").fill(who.email);
  await form.getByLabel("Password").fill(who.password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-menu")).toBeVisible();
}

test("sets up the first admin, signs out and signs in again", async ({ page }) => {
  const base = server.baseUrl;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${base}/setup`);
  const form = page.getByRole("form", { name: "Create the first admin" });
  await form.getByLabel("Name").fill(ADMIN.name);
  await form.getByLabel("Email").fill(ADMIN.email);
  await form.getByLabel(/^Password/).fill(ADMIN.password);
  await form.getByLabel("Confirm password").fill(ADMIN.password);
  await page.screenshot({ path: `${SCREENSHOTS}/26-setup-accounts.png` });
  await form.getByRole("button", { name: "Create admin and sign in" }).click();
  const menu = page.getByTestId("account-menu");
  await expect(menu).toContainText(ADMIN.name);
  await expect(menu).toContainText("admin");
  // The offer is gone for good once accounts exist.
  await expect(page.getByRole("region", { name: "Set up accounts" })).toHaveCount(0);

  await menu.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(/\/login\?next=/);
  const signInForm = page.getByRole("form", { name: "Sign in with email" });
  await signInForm.getByLabel("Email").fill(ADMIN.email);
  await signInForm.getByLabel("Password").fill("not the password");
  await signInForm.getByRole("button", { name: "Sign in" }).click();
  await expect(signInForm.getByRole("alert")).toContainText("do not match an account");
  await atEachWidth(page, () => expectNoAxeViolations(page));
  await signInForm.getByLabel("Password").fill(ADMIN.password);
  await signInForm.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-menu")).toContainText(ADMIN.name);
  await expect(page).toHaveURL(`${base}/`);

  // Setting up again is refused with a way forward.
  await page.goto(`${base}/setup`);
  await expect(page.getByText("Accounts are already set up on this server.")).toBeVisible();
});

test("members: add an account, change its role, remove it", async ({ page }) => {
  const base = server.baseUrl;
  await signIn(page, ADMIN);
  await page.goto(`${base}/admin/users`);
  const create = page.getByRole("form", { name: "Create account" });
  await create.getByLabel("Name").fill(RUNNER.name);
  await create.getByLabel("Email").fill(RUNNER.email);
  await create.getByLabel("First password").fill(RUNNER.password);
  await create.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("region", { name: "Accounts" })).toContainText(RUNNER.email);

  const created = await api(page).post(`${base}/api/projects`, {
    data: { name: "Team project" },
    headers: { origin: base },
  });
  expect(created.status()).toBe(201);
  projectId = ((await created.json()) as { id: string }).id;

  await page.goto(`${base}/projects/${projectId}`);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(`${base}/projects/${projectId}/settings/members`);
  const add = page.getByRole("form", { name: "Add member" });
  await add.getByLabel("User").selectOption({ label: `${RUNNER.name} <${RUNNER.email}>` });
  await add.getByLabel("Role").selectOption("runner");
  await add.getByRole("button", { name: "Add member" }).click();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByLabel(`Role of ${RUNNER.name}`)).toHaveValue("runner");
  await page.screenshot({ path: `${SCREENSHOTS}/26b-project-members.png`, fullPage: true });
  await atEachWidth(page, () => expectNoAxeViolations(page));

  await members.getByLabel(`Role of ${RUNNER.name}`).selectOption("viewer");
  await expect(members.getByLabel(`Role of ${RUNNER.name}`)).toHaveValue("viewer");
  await page.reload();
  await expect(page.getByRole("table", { name: "Members" }).getByLabel(`Role of ${RUNNER.name}`)).toHaveValue(
    "viewer",
  );

  await page.getByRole("button", { name: `Remove ${RUNNER.name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Remove member" });
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByRole("table", { name: "Members" }).getByText(RUNNER.name)).toHaveCount(0);
  // Back as a runner for the role test below.
  await page
    .getByRole("form", { name: "Add member" })
    .getByLabel("User")
    .selectOption({ label: `${RUNNER.name} <${RUNNER.email}>` });
  await page.getByRole("form", { name: "Add member" }).getByLabel("Role").selectOption("runner");
  await page.getByRole("form", { name: "Add member" }).getByRole("button", { name: "Add member" }).click();
  await expect(page.getByRole("table", { name: "Members" }).getByLabel(`Role of ${RUNNER.name}`)).toHaveValue(
    "runner",
  );
});

test("API keys: the secret is shown once, works, and stops working once revoked", async ({ page }) => {
  const base = server.baseUrl;
  await signIn(page, ADMIN);
  await page.goto(`${base}/projects/${projectId}/settings/keys`);
  await expect(page.getByText("No API keys yet")).toBeVisible();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByLabel("Name").fill("CI");
  await form.getByLabel(/^run/).check();
  await form.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("region", { name: "New API key" });
  await expect(created).toContainText("you won't see it again");
  const secret = (await created.getByTestId("new-key-secret").textContent())?.trim() ?? "";
  expect(secret.length).toBeGreaterThan(20);
  await expect(created.getByRole("button", { name: "Copy" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/26c-api-key-created.png`, fullPage: true });
  await atEachWidth(page, () => expectNoAxeViolations(page));

  const script = await playwrightRequest.newContext();
  try {
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await script.get(`${base}/api/projects/${projectId}`, { headers: bearer })).status()).toBe(200);

    await created.getByRole("button", { name: "I have copied it" }).click();
    await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
    const keys = page.getByRole("table", { name: "API keys" });
    await expect(keys).toContainText("CI");
    await expect(keys).toContainText("read");
    await expect(keys).toContainText("run");
    // Listed again from the server: the secret is never sent back.
    await page.reload();
    const listed = page.getByRole("table", { name: "API keys" }).getByRole("row", { name: /CI/ });
    await expect(listed).toBeVisible();
    // The script's call above is its last use.
    await expect(listed).not.toContainText("never");
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Revoke CI" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API key" });
    await expect(confirm).toContainText("cannot be undone");
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(page.getByText("No API keys yet")).toBeVisible();
    expect((await script.get(`${base}/api/projects/${projectId}`, { headers: bearer })).status()).toBe(401);
  } finally {
    await script.dispose();
  }
});

test("credentials: names and dates only, replaced and deleted; the audit log records it all", async ({
  page,
}) => {
  const base = server.baseUrl;
  await signIn(page, ADMIN);
  await page.goto(`${base}/projects/${projectId}/settings/credentials`);
  await expect(page.getByText("No credentials yet")).toBeVisible();
  const add = page.getByRole("form", { name: "Add credential" });
  await add.getByLabel("Name").fill("openai");
  await add.getByLabel("Value").fill(SECRET_VALUE);
  await add.getByRole("button", { name: "Add credential" }).click();
  const table = page.getByRole("table", { name: "Credentials" });
  await expect(table).toContainText("openai");
  await page.reload();
  await expect(page.getByRole("table", { name: "Credentials" })).toContainText("openai");
  expect(await page.content()).not.toContain(SECRET_VALUE);
  await page.screenshot({ path: `${SCREENSHOTS}/26d-credentials.png`, fullPage: true });
  await atEachWidth(page, () => expectNoAxeViolations(page));

  await page.getByRole("button", { name: "Replace openai" }).click();
  const replace = page.getByRole("form", { name: "Replace openai" });
  await replace.getByLabel("New value").fill(`${SECRET_VALUE}-2`);
  await replace.getByRole("button", { name: "Replace value" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Replaced the value of “openai”." })).toBeVisible();

  await page.getByRole("button", { name: "Delete openai" }).click();
  await page
    .getByRole("dialog", { name: "Delete credential" })
    .getByRole("button", { name: "Delete credential" })
    .click();
  await expect(page.getByText("No credentials yet")).toBeVisible();

  await page.getByRole("link", { name: "Audit" }).click();
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log).toContainText("credential.set");
  await expect(log).toContainText("key.create");
  await page.getByLabel("Action").selectOption("credential.delete");
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log).toContainText(ADMIN.name);
  await atEachWidth(page, () => expectNoAxeViolations(page));
});

test("the model inspector: an owner adds a credential in place and picks it as the model's key", async ({
  page,
}) => {
  const base = server.baseUrl;
  await signIn(page, ADMIN);
  await page.goto(`${base}/projects/${projectId}/studio`);
  await page.getByRole("button", { name: "Add model", exact: true }).click();
  const inspector = page.getByRole("complementary", { name: "Inspector" });
  const picker = inspector.getByLabel("API key credential", { exact: true });
  await expect(picker).toHaveValue("");
  await inspector.getByRole("button", { name: "Add credential…" }).click();
  const dialog = page.getByRole("dialog", { name: "Add credential" });
  await dialog.getByLabel("Name").fill("anthropic");
  await dialog.getByLabel("Value").fill(SECRET_VALUE);
  await dialog.getByRole("button", { name: "Add credential" }).click();
  await expect(dialog).toBeHidden();
  await expect(picker).toHaveValue("anthropic");
  await expect(picker.getByRole("option")).toHaveText(["None (use the env variable)", "anthropic"]);
  expect(await page.content()).not.toContain(SECRET_VALUE);
  await atEachWidth(page, () => expectNoAxeViolations(page));
});

test("a runner may run but not save, and sees why", async ({ page }) => {
  const base = server.baseUrl;
  await signIn(page, RUNNER);
  await page.goto(`${base}/projects/${projectId}/studio`);
  const save = page.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeDisabled();
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await save.locator("xpath=..").focus();
  await expect(page.getByRole("tooltip")).toContainText(
    "Runners can't save changes — ask a project owner for the editor role.",
  );
  await atEachWidth(page, () => expectNoAxeViolations(page));

  await page.goto(`${base}/projects/${projectId}/settings/members`);
  await expect(
    page.getByRole("form", { name: "Add member" }).getByRole("button", { name: "Add member" }),
  ).toBeDisabled();
  await page.goto(`${base}/projects/${projectId}/settings/keys`);
  await expect(page.getByText("Only owners see this project's API keys")).toBeVisible();
});
