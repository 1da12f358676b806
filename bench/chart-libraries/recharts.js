import { createElement as h } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { done, series } from "./data.js";

window.__start = performance.now();
const { t, calls, p95 } = series();
const data = t.map((x, i) => ({ t: x, calls: calls[i], p95: p95[i] }));
const root = createRoot(document.getElementById("root"));
flushSync(() =>
  root.render(
    h(
      LineChart,
      { width: 1200, height: 240, data },
      h(XAxis, { dataKey: "t" }),
      h(YAxis, { yAxisId: "l" }),
      h(YAxis, { yAxisId: "r", orientation: "right" }),
      h(Tooltip),
      h(Line, { yAxisId: "l", dataKey: "calls", stroke: "#2563eb", dot: false, isAnimationActive: false }),
      h(Line, { yAxisId: "r", dataKey: "p95", stroke: "#dc2626", dot: false, isAnimationActive: false }),
    ),
  ),
);
done("recharts");
