// Starts one of our entries: its JavaScript build in dist/ (`npm run build`, scripts/build-bin.mjs) when
// that build is present and no source file of it changed since, else the TypeScript source through tsx,
// with a one-line note on stderr (stdout stays the command's result alone).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const root = path.resolve(import.meta.dirname, "..");

/** Why `<dir>/dist/<name>.mjs` cannot be used, or undefined when it can. A stat per source file: ~1 ms. */
export function staleBuild(name, dir = root) {
  let build;
  try {
    build = JSON.parse(fs.readFileSync(path.join(dir, "dist", "build.json"), "utf8"));
  } catch {
    return "no build in dist/";
  }
  if (!fs.existsSync(path.join(dir, "dist", `${name}.mjs`))) return `no dist/${name}.mjs`;
  for (const source of build.sources) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(dir, source)).mtimeMs;
    } catch {
      return `${source} was removed after the last build`;
    }
    if (mtime > build.built_at) return `${source} changed after the last build`;
  }
  return undefined;
}

/** Runs dist/<name>.mjs, or `source` (a .ts file relative to the root) through tsx. */
export async function launch(name, source) {
  const stale = staleBuild(name);
  if (!stale) return import(pathToFileURL(path.join(root, "dist", `${name}.mjs`)).href);
  process.stderr.write(
    `switchboard: ${stale}; running ${source} through tsx (slower start; \`npm run build\` compiles it)\n`,
  );
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  return import(pathToFileURL(path.join(root, source)).href);
}
