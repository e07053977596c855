// Writes docs/errors.md from the error catalogue and the tool registry: `npm run docs:errors`.
import fs from "node:fs";
import { ERRORS_DOC, renderErrorsDoc } from "./lib/docs-errors.mjs";

fs.writeFileSync(ERRORS_DOC, renderErrorsDoc());
console.log(`wrote ${ERRORS_DOC}`);
