#!/usr/bin/env node
// `npm start`: dist/server.mjs (built from server/main.ts by `npm run build`), else server/main.ts through
// tsx (bin/launch.mjs).
import { launch } from "./launch.mjs";

await launch("server", "server/main.ts");
