#!/usr/bin/env node
// `switchboard` CLI entry: dist/cli.mjs (built from cli/main.ts by `npm run build`), else cli/main.ts
// through tsx (bin/launch.mjs).
import v8 from "node:v8";
import { launch, root } from "./launch.mjs";

// A one-shot command runs Prisma's query compiler (WebAssembly) for a handful of queries: V8's baseline
// compiler alone is enough and saves ~0.3 s of CPU per command (optimising it pays only in a long-lived server).
v8.setFlagsFromString("--liftoff-only");

process.env.SWITCHBOARD_APP_DIR ??= root;
// A one-shot command's stderr is for its own messages: the server's warnings (a first query's slow unit) are noise here.
process.env.LOG_LEVEL ??= "error";
await launch("cli", "cli/main.ts");
