import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { done, series } from "./data.js";

window.__start = performance.now();
const { t, calls, p95 } = series();
new uPlot(
  {
    width: 1200,
    height: 240,
    series: [{}, { label: "calls", stroke: "#2563eb" }, { label: "p95", stroke: "#dc2626", scale: "ms" }],
    axes: [{}, {}, { scale: "ms", side: 1 }],
  },
  [t.map((x) => x / 1000), calls, p95],
  document.getElementById("root"),
);
done("uplot");
