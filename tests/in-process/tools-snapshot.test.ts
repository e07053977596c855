// The tool surface as a client sees it: tools/list for each caller kind (names, titles, descriptions,
// input and output schemas, annotations), compared with the committed snapshots in tests/snapshots/.
// Any change to the surface fails here and shows up in review as a diff of those JSON files.
// Update after an intended change: `npm run snapshot:tools` (UPDATE_SNAPSHOTS=1 on this file).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { goalWithAgents, type InProcess, startInProcess } from "../helpers/in-process";
import { ROOT } from "../helpers/server";

const UPDATE = process.env.UPDATE_SNAPSHOTS === "1";
const HOW_TO_UPDATE =
  "If the change is intended, run `npm run snapshot:tools` (or UPDATE_SNAPSHOTS=1 node --import tsx --test tests/in-process/tools-snapshot.test.ts) and commit tests/snapshots/.";

let h: InProcess;
let listings: Record<"agent" | "owner", unknown[]>;

before(async () => {
  h = await startInProcess();
  const { owner, agents } = await goalWithAgents(h, 0);
  const agent = agents[0]?.client;
  assert.ok(agent);
  listings = { agent: (await agent.listTools()).tools, owner: (await owner.listTools()).tools };
});
after(() => h?.stop());

for (const kind of ["agent", "owner"] as const) {
  test(`tools/list for an ${kind} caller matches tests/snapshots/tools-${kind}.json`, () => {
    const file = path.join(ROOT, "tests/snapshots", `tools-${kind}.json`);
    const actual = JSON.stringify(listings[kind], null, 2);
    if (UPDATE) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${actual}\n`);
      // Written in the repository's JSON style, so `biome check` stays clean.
      execFileSync(path.join(ROOT, "node_modules/.bin/biome"), ["format", "--write", file], { cwd: ROOT });
      return;
    }
    assert.ok(fs.existsSync(file), `${file} is missing. ${HOW_TO_UPDATE}`);
    // Compared as data (the file's layout is Biome's); the diff is of both sides laid out alike.
    const expected = JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8")), null, 2);
    if (expected === actual) return;
    assert.fail(
      `tools/list for an ${kind} caller differs from tests/snapshots/tools-${kind}.json ` +
        `(- snapshot, + now):\n${lineDiff(expected, actual)}\n${HOW_TO_UPDATE}`,
    );
  });
}

/** The changed lines of two texts with two lines of context, `-` snapshot, `+` now (LCS on lines). */
function lineDiff(a: string, b: string): string {
  const x = a.split("\n");
  const y = b.split("\n");
  // Trim the common head and tail so the LCS table stays small.
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (
    tail < x.length - head &&
    tail < y.length - head &&
    x[x.length - 1 - tail] === y[y.length - 1 - tail]
  )
    tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const w = ys.length + 1;
  const table = new Uint32Array((xs.length + 1) * w);
  const lcs = (i: number, j: number) => table[i * w + j] ?? 0;
  for (let i = xs.length - 1; i >= 0; i--)
    for (let j = ys.length - 1; j >= 0; j--)
      table[i * w + j] = xs[i] === ys[j] ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), lcs(i, j + 1));
  const out: string[] = x.slice(Math.max(0, head - 2), head).map((l) => `  ${l}`);
  let i = 0;
  let j = 0;
  while (i < xs.length || j < ys.length) {
    if (i < xs.length && j < ys.length && xs[i] === ys[j]) {
      out.push(`  ${xs[i]}`);
      i++;
      j++;
    } else if (i < xs.length && (j === ys.length || lcs(i + 1, j) >= lcs(i, j + 1))) out.push(`- ${xs[i++]}`);
    else out.push(`+ ${ys[j++]}`);
  }
  out.push(...x.slice(x.length - tail, x.length - tail + 2).map((l) => `  ${l}`));
  return `@@ line ${head + 1} @@\n${out.join("\n")}`;
}
