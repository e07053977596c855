#!/usr/bin/env node
// `npm run runner` entry: runs lib/runner/main.ts through tsx (TypeScript, tsconfig paths).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
process.env.SWITCHBOARD_APP_DIR ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(pathToFileURL(path.join(root, "lib/runner/main.ts")).href);
