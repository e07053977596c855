// A schema edit without its migration fails here: the committed migrations must lead to the current schema.
// Fix: `npm run db:migration -- <name>`.
import assert from "node:assert/strict";
import test from "node:test";
import { committedSchema, currentSchema, diff, PROVIDERS } from "../../scripts/lib/schema-engine.mjs";

for (const provider of PROVIDERS) {
  test(`${provider} migrations are in sync with prisma/schema.prisma`, async () => {
    const { changed, sql } = await diff(committedSchema(provider), currentSchema(provider));
    assert.equal(
      changed,
      false,
      `prisma/schema.prisma changed without a migration; pending ${provider} SQL:\n${sql}`,
    );
  });
}
