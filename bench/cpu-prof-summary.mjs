// Summarise a .cpuprofile (bench/cpu-prof.cjs, `npm run bench -- --server-cpu-prof DIR`) over a window of time:
//   node bench/cpu-prof-summary.mjs DIR/server-PID.cpuprofile <from-s> <to-s> [top-n]
// (seconds since the profile started; pick the measured phase, not the start-up). Prints busy/idle time and
// the busy time by package, by function (self) and by function (inclusive), as percentages of busy time.
import fs from "node:fs";

const [file, a, b, topN = "30"] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = 0;
const counts = new Map();
let total = 0;
const endS = p.timeDeltas.reduce((x, y) => x + y, 0) / 1e6;
p.samples.forEach((id, i) => {
  t += p.timeDeltas[i];
  const s = t / 1e6;
  if (s >= Number(a) && s <= Number(b)) {
    counts.set(id, (counts.get(id) ?? 0) + p.timeDeltas[i]);
    total += p.timeDeltas[i];
  }
});
const key = (n) =>
  `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
const selfBy = new Map(),
  incl = new Map(),
  pkg = new Map();
let idle = 0;
for (const [id, tt] of counts) {
  const n = byId.get(id);
  if (n.callFrame.functionName === "(idle)") {
    idle += tt;
    continue;
  }
  selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + tt);
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const k = key(byId.get(cur));
    if (!seen.has(k)) {
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + tt);
    }
    cur = parent.get(cur);
  }
  const u = n.callFrame.url;
  const m = u.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  const k = m
    ? m[1]
    : u.includes("/.next/")
      ? "next-bundle"
      : u.includes("/dist/")
        ? "dist(our code)"
        : u.startsWith("node:")
          ? u.split("/").slice(0, 2).join("/")
          : u || `(native:${n.callFrame.functionName})`;
  pkg.set(k, (pkg.get(k) ?? 0) + tt);
}
const busy = total - idle;
const top = (m, n) =>
  [...m]
    .sort((x, y) => y[1] - x[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`)
    .join("\n");
console.log(
  `profile ${endS.toFixed(1)} s; window ${a}-${b}: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s (percentages of busy)`,
);
console.log(`BY PACKAGE\n${top(pkg, 25)}`);
console.log(`SELF\n${top(selfBy, Number(topN))}`);
console.log(`INCLUSIVE\n${top(incl, Number(topN))}`);
