#!/usr/bin/env node
// `switchboard` CLI entry: dist/cli.mjs (built from cli/main.ts by `npm run build`), else cli/main.ts
// through tsx (bin/launch.mjs).
import { launch, root } from "./launch.mjs";

process.env.SWITCHBOARD_APP_DIR ??= root;
// A one-shot command's stderr is for its own messages: the server's warnings (a first query's slow unit) are noise here.
process.env.LOG_LEVEL ??= "error";
await launch("cli", "cli/main.ts");
