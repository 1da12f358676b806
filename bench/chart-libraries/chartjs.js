import { Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from "chart.js";
import { done, series } from "./data.js";

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);
window.__start = performance.now();
const { t, calls, p95 } = series();
const canvas = document.createElement("canvas");
canvas.width = 1200;
canvas.height = 240;
document.getElementById("root").append(canvas);
new Chart(canvas, {
  type: "line",
  data: {
    datasets: [
      { data: t.map((x, i) => ({ x, y: calls[i] })), borderColor: "#2563eb", pointRadius: 0 },
      { data: t.map((x, i) => ({ x, y: p95[i] })), borderColor: "#dc2626", pointRadius: 0, yAxisID: "ms" },
    ],
  },
  options: {
    animation: false,
    responsive: false,
    parsing: false,
    scales: { x: { type: "linear" }, y: {}, ms: { position: "right" } },
  },
});
done("chartjs");
