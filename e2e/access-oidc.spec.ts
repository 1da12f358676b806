// Sign-in with an OpenID Connect provider in Chromium (docs/security.md "Single sign-on"), on a
// server and database of its own (accounts on) with a real provider beside it (oidc-provider on
// 127.0.0.1, test/support/oidc-test-provider.mjs): /login shows "Sign in with Test IdP" above the
// email form; clicking it goes to the provider and back, and lands signed in as the invited user
// whose verified email matched. A stranger gets the page saying whom to ask. Axe at 1280; the
// login page's screenshots at 1440 and 1920 (the gallery's copy at 1440) in e2e-artifacts/.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createIsolatedDatabaseConfig } from "../test/support/database";
import { type OidcTestProvider, startOidcTestProvider } from "../test/support/oidc-test-provider.mjs";
import { startTestServer, type TestServer } from "../test/support/server";

const ARTIFACTS = "e2e-artifacts";
const GALLERY = "e2e-artifacts/gallery";
const CLIENT = { clientId: "tandem-e2e", clientSecret: "e2e-oidc-client-secret-5521" };
const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery" };
const OLIVIA = { name: "Olivia Okta", email: "olivia@example.com", password: "a first password 9" };

test.describe.configure({ mode: "serial" });

let server: TestServer;
let provider: OidcTestProvider;
let drop: () => Promise<void>;

test.beforeAll(async () => {
  provider = await startOidcTestProvider();
  const database = await createIsolatedDatabaseConfig();
  drop = database.drop;
  server = await startTestServer({
    ...database.env,
    TANDEM_OIDC_ISSUER: provider.issuer,
    TANDEM_OIDC_CLIENT_ID: CLIENT.clientId,
    TANDEM_OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    TANDEM_OIDC_NAME: "Test IdP",
  });
  provider.registerClient({ ...CLIENT, redirectUri: `${server.baseUrl}/api/auth/oidc/callback` });
  provider.setAccount("olivia-sub", { email: OLIVIA.email, email_verified: true, name: OLIVIA.name });
  provider.setAccount("stranger-sub", { email: "stranger@example.com", email_verified: true });
  // Accounts on, Olivia invited (by email; she never uses her password here).
  const setup = await fetch(`${server.baseUrl}/api/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  expect(setup.status).toBe(201);
  const cookie = /tandem_session=[^;]+/.exec(setup.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const invited = await fetch(`${server.baseUrl}/api/users`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(OLIVIA),
  });
  expect(invited.status).toBe(201);
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
  await drop?.();
});

async function expectNoAxeViolations(page: Page) {
  await page.mouse.move(1, 1);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(
    axe.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    ),
  ).toEqual([]);
}

test("the login page offers the provider, and its round trip signs the invited user in", async ({ page }) => {
  const base = server.baseUrl;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(/\/login\?next=/);
  const button = page.getByRole("link", { name: "Sign in with Test IdP" });
  await expect(button).toBeVisible();
  // The email form stays beside it.
  await expect(page.getByRole("form", { name: "Sign in with email" })).toBeVisible();
  await expectNoAxeViolations(page);

  provider.signInAs("olivia-sub");
  await button.click();
  const menu = page.getByTestId("account-menu");
  await expect(menu).toContainText(OLIVIA.name);
  await expect(menu).not.toContainText("admin");
  await expect(page).toHaveURL(`${base}/`);
  await expectNoAxeViolations(page);
});

test("a stranger is told whom to ask, with a way back", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.baseUrl}/login`);
  provider.signInAs("stranger-sub");
  await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
  await expect(page.getByRole("alert")).toContainText("Ask an admin to invite stranger@example.com");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expect(page.getByRole("link", { name: "Sign in with Test IdP" })).toBeVisible();
});

test("the login page with the provider at 1440 and 1920 wide", async ({ page }) => {
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(`${server.baseUrl}/login`);
    await expect(page.getByRole("link", { name: "Sign in with Test IdP" })).toBeVisible();
    await page.mouse.move(0, size.height);
    await page.screenshot({ path: `${ARTIFACTS}/login-oidc-${size.width}.png`, fullPage: true });
    if (size.width === 1440)
      await page.screenshot({ path: `${GALLERY}/26e-login-oidc.png`, animations: "disabled", caret: "hide" });
  }
});
