// The local default with accounts available but not set up: no sign-in, nobody in the header, a
// one-time "Set up accounts" offer on the home page that "Not now" hides for good, and /setup ready
// to create the first admin (not submitted here: this is the shared e2e server, which every other
// spec uses without signing in). Checked at 1280, 1440 and 1920 wide with axe.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { atEachWidth } from "../test/support/e2e-widths";

async function expectNoAxeViolations(page: import("@playwright/test").Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test("without accounts the studio needs no sign-in and offers to set accounts up once", async ({ page }) => {
  await page.goto("/");
  const offer = page.getByRole("region", { name: "Set up accounts" });
  await expect(offer).toBeVisible();
  await expect(page.getByTestId("account-menu")).toHaveCount(0);
  await atEachWidth(page, async () => {
    await offer.scrollIntoViewIfNeeded();
    await expect(offer.getByRole("link", { name: "Set up accounts" })).toBeInViewport();
    await expectNoAxeViolations(page);
  });

  await offer.getByRole("link", { name: "Set up accounts" }).click();
  await expect(page).toHaveURL(/\/setup$/);
  const form = page.getByRole("form", { name: "Create the first admin" });
  await expect(form.getByLabel("Name")).toBeVisible();
  await expect(form.getByLabel("Email")).toBeVisible();
  await expect(form.getByLabel(/^Password/)).toBeVisible();
  await expect(form.getByLabel("Confirm password")).toBeVisible();
  // A mismatch is caught before anything is sent.
  await form.getByLabel("Name").fill("Ada");
  await form.getByLabel("Email").fill("ada@example.com");
  await form.getByLabel(/^Password/).fill("correct horse battery");
  await form.getByLabel("Confirm password").fill("correct horse batter");
  await form.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(form.getByRole("alert")).toHaveText("The two passwords differ: type the same password twice.");
  await atEachWidth(page, () => expectNoAxeViolations(page));

  await page.goto("/");
  await page
    .getByRole("region", { name: "Set up accounts" })
    .getByRole("button", { name: "Not now" })
    .click();
  await expect(page.getByRole("region", { name: "Set up accounts" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Set up accounts" })).toHaveCount(0);
});
