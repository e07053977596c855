// SQLite durability vs speed (issue 16 §5): the cost of one WAL commit with synchronous=NORMAL and FULL on
// this machine's disk, for a transaction of `units` small inserts (group commit puts ~5 units in one).
// Usage: node bench/sqlite-sync.mjs [dir] [commits]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const dir = fs.mkdtempSync(path.join(process.argv[2] ?? path.join(process.cwd(), "data"), "sync-bench-"));
const commits = Number(process.argv[3] ?? 2000);
for (const mode of ["NORMAL", "FULL", "NORMAL", "FULL"]) {
  const file = path.join(dir, `${mode}-${Math.random().toString(36).slice(2)}.db`);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${mode}`);
  db.exec("CREATE TABLE m (id INTEGER PRIMARY KEY, body TEXT)");
  const ins = db.prepare("INSERT INTO m (body) VALUES (?)");
  const times = [];
  for (let i = 0; i < commits; i++) {
    const t = process.hrtime.bigint();
    db.exec("BEGIN IMMEDIATE");
    for (let u = 0; u < 5; u++) ins.run("x".repeat(200));
    db.exec("COMMIT");
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  const p = (q) => times[Math.floor(q * (times.length - 1))].toFixed(0);
  console.log(
    `${mode.padEnd(6)} commits=${commits} p50=${p(0.5)} µs p99=${p(0.99)} µs  (${(commits / (times.reduce((a, b) => a + b, 0) / 1e6)).toFixed(0)} commits/s)`,
  );
  db.close();
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `machine: ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
