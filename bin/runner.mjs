#!/usr/bin/env node
// `npm run runner` entry: dist/runner.mjs (built from lib/runner/main.ts by `npm run build`), else
// lib/runner/main.ts through tsx (bin/launch.mjs).
import { launch, root } from "./launch.mjs";

process.env.SWITCHBOARD_APP_DIR ??= root;
await launch("runner", "lib/runner/main.ts");
