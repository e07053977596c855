// Migration SQL from Prisma's WebAssembly schema engine, offline and without a database
// (docs/development.md, "Prisma …"). Every migration directory holds its migration.sql and a snapshot
// (schema.prisma) of the datamodel it leads to, so what is pending is the engine's diff from the latest
// snapshot to the current schema. Used by scripts/db-migration.mts and tests/unit/migrations-in-sync.test.ts.
import fs from "node:fs";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  mockMigrationAwareAdapterFactory,
} from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

export type Provider = "sqlite" | "postgres";
export const PROVIDERS: Provider[] = ["sqlite", "postgres"];
export const SNAPSHOT = "schema.prisma";

const root = path.resolve(import.meta.dirname, "../..");

export function migrationsDir(provider: Provider): string {
  return path.join(root, "prisma/migrations", provider);
}

/** Migration directory names, oldest first (the order lib/db/migrate.ts applies them in). */
export function migrationNames(provider: Provider): string[] {
  const dir = migrationsDir(provider);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The datamodel the committed migrations lead to (the latest snapshot), or undefined when there are none. */
export function committedSchema(provider: Provider): string | undefined {
  const latest = migrationNames(provider).at(-1);
  return latest === undefined
    ? undefined
    : fs.readFileSync(path.join(migrationsDir(provider), latest, SNAPSHOT), "utf8");
}

/** prisma/schema.prisma, or for PostgreSQL its derivation as in scripts/db-generate.mjs (only the provider matters here). */
export function currentSchema(provider: Provider): string {
  const source = fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
  if (provider === "sqlite") return source;
  const derived = source.replace('provider = "sqlite"', 'provider = "postgresql"');
  if (derived === source)
    throw new Error('prisma/schema.prisma: no `provider = "sqlite"` line to derive PostgreSQL from');
  return derived;
}

// The engine reports a Rust panic here just before it traps; without it the panic message is lost.
let panic = "";
(globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = {
  set_message: (m: string) => {
    panic = m;
  },
};

let engine: Promise<bg.SchemaEngine> | undefined;

/** Node 20 cannot import the package's `.wasm` ESM entry, so instantiate the module by hand against its JS glue. */
function loadEngine(): Promise<bg.SchemaEngine> {
  engine ??= (async () => {
    const wasmFile = new URL(
      "schema_engine_bg.wasm",
      import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg"),
    );
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmFile), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    // The engine requires an adapter but only touches it for database targets, which a datamodel-to-datamodel
    // diff has none of; the SQL dialect comes from each datamodel's provider. A SQLite mock serves both
    // providers: a PostgreSQL one would be queried for the server version at start.
    return bg.SchemaEngine.new(
      { datamodels: undefined },
      () => {},
      bindMigrationAwareSqlAdapterFactory(mockMigrationAwareAdapterFactory("sqlite")),
    );
  })();
  return engine;
}

/** The SQL script taking a database from datamodel `from` (undefined: an empty database) to `to`. */
export async function diff(from: string | undefined, to: string): Promise<{ changed: boolean; sql: string }> {
  const target = (content: string) => ({
    tag: "schemaDatamodel" as const,
    files: [{ path: "schema.prisma", content }],
  });
  try {
    const result = await (await loadEngine()).diff({
      from: from === undefined ? { tag: "empty" } : target(from),
      to: target(to),
      script: true,
      exitCode: true, // exit code 2: the diff is not empty
      filters: { externalTables: [], externalEnums: [] },
    });
    return { changed: result.exitCode === 2, sql: result.stdout ?? "" };
  } catch (e) {
    throw panic ? new Error(`schema engine panicked: ${panic}`) : e;
  }
}
