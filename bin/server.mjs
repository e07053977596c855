#!/usr/bin/env node
// `npm start`: runs server/main.ts (TypeScript, tsconfig paths) through tsx.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(pathToFileURL(path.join(root, "server/main.ts")).href);
