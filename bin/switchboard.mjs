#!/usr/bin/env node
// `switchboard` CLI entry: dist/cli.mjs (built from cli/main.ts by `npm run build`), else cli/main.ts
// through tsx (bin/launch.mjs).
import { launch, root } from "./launch.mjs";

process.env.SWITCHBOARD_APP_DIR ??= root;
await launch("cli", "cli/main.ts");
