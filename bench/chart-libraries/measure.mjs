// Chooses the dashboard's charting library by measurement (docs/observability.md "Dashboard"):
// each candidate draws the same 90-day hourly series (2,160 points × 2 lines) into a 1200×240 chart;
// the figure is the minified + gzipped bundle of that page (React excluded for Recharts: the app
// ships it anyway) and the time from script start to the frame after the chart is drawn, median of
// 7 loads in Chromium. Run: `CHART_BENCH_MODULES=<dir with the candidates installed> node bench/chart-libraries/measure.mjs`.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { build } from "esbuild";

const here = path.dirname(new URL(import.meta.url).pathname);
const modules = process.env.CHART_BENCH_MODULES ?? path.join(here, "../../node_modules");
const out = mkdtempSync(path.join(tmpdir(), "chart-bench-"));
const results = [];
for (const name of ["uplot", "chartjs", "recharts"]) {
  const bundle = async (external) => {
    const result = await build({
      entryPoints: [path.join(here, `${name}.js`)],
      bundle: true,
      minify: true,
      write: false,
      format: "iife",
      nodePaths: [path.join(modules, "node_modules"), modules],
      outdir: out,
      define: { "process.env.NODE_ENV": '"production"' },
      external,
      logLevel: "silent",
    });
    return result.outputFiles;
  };
  const files = await bundle([]);
  const js = files.find((file) => file.path.endsWith(".js")).contents;
  const css = files.find((file) => file.path.endsWith(".css"))?.contents ?? new Uint8Array();
  let gzip = gzipSync(js).length + gzipSync(css).length;
  if (name === "recharts") {
    // The library's own weight: the same page's React alone, subtracted.
    const react = await build({
      stdin: {
        contents:
          'import {createElement} from "react"; import {createRoot} from "react-dom/client"; import {flushSync} from "react-dom"; window.x=[createElement,createRoot,flushSync];',
        resolveDir: here,
      },
      bundle: true,
      minify: true,
      write: false,
      format: "iife",
      nodePaths: [path.join(modules, "node_modules"), modules],
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    });
    gzip -= gzipSync(react.outputFiles[0].contents).length;
  }
  writeFileSync(
    path.join(out, `${name}.html`),
    `<!doctype html><html><head><style>${Buffer.from(css)}</style></head><body><div id="root"></div><script>${Buffer.from(js)}</script></body></html>`,
  );
  results.push({ name, gzip });
}
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
for (const result of results) {
  const times = [];
  for (let run = 0; run < 7; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 400 } });
    await page.goto(`file://${path.join(out, `${result.name}.html`)}`);
    await page.waitForFunction(() => window.__rendered !== undefined);
    times.push(await page.evaluate(() => window.__rendered.ms));
    await page.close();
  }
  times.sort((a, b) => a - b);
  result.renderMs = Math.round(times[3] * 10) / 10;
}
await browser.close();
for (const result of results)
  console.log(
    `${result.name.padEnd(9)} ${(result.gzip / 1024).toFixed(1).padStart(6)} KiB gzip   ${String(result.renderMs).padStart(6)} ms render (median of 7)`,
  );
