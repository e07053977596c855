#!/usr/bin/env node
// Generates the two Prisma clients (SQLite and PostgreSQL) offline. prisma/schema.prisma is the source;
// prisma/postgres/schema.prisma is derived from it (provider and output path only).
// The Prisma CLI wants a schema engine binary it would download; `generate` does not use it, so any
// existing file satisfies it (docs/development.md, "Prisma without its downloadable engines").
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const source = fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
const derived = source
  .replace('provider = "sqlite"', 'provider = "postgresql"')
  .replace('output       = "../lib/db/generated/sqlite"', 'output       = "../../lib/db/generated/postgres"');
if (
  derived === source ||
  !derived.includes('provider = "postgresql"') ||
  !derived.includes("generated/postgres")
) {
  throw new Error(
    "prisma/schema.prisma: could not derive the PostgreSQL schema (provider/output lines changed?)",
  );
}
fs.mkdirSync(path.join(root, "prisma/postgres"), { recursive: true });
fs.writeFileSync(
  path.join(root, "prisma/postgres/schema.prisma"),
  `// GENERATED from prisma/schema.prisma by scripts/db-generate.mjs. Do not edit.\n${derived}`,
);

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/true",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
for (const schema of ["prisma/schema.prisma", "prisma/postgres/schema.prisma"]) {
  execFileSync(
    process.execPath,
    [path.join(root, "node_modules/prisma/build/index.js"), "generate", "--schema", schema],
    {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}
console.error("prisma clients generated (sqlite, postgres)");
