// The window sizes every screen is looked at in the e2e specs: 1280, 1440 and 1920 wide.
import type { Page } from "@playwright/test";

export const SCREEN_SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

/** Resizes the window to each of SCREEN_SIZES in turn and runs `visit` there. */
export async function atEachWidth(page: Page, visit: (width: number) => Promise<void>): Promise<void> {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await visit(size.width);
  }
}
