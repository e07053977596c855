// Arbitraries for the fuzz tests (issue 16 §6): values that fit a tool's JSON input schema (as tools/list
// shows it), mixed with adversarial ones (huge, unicode, bidirectional and control characters, NUL, numbers
// at and past the bounds, wrong types, extra fields).
import fc from "fast-check";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  $defs?: Record<string, Schema>;
  default?: unknown;
};

/** Strings that have broken parsers, renderers, databases and logs. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202Eevil\u202C",
  "\u2066isolate\u2069",
  "\u200B\u200C\u200D\uFEFF",
  "\uD800", // a lone surrogate
  "\uDFFF\uD800",
  "😀".repeat(50),
  "Z̸̢̛̗͓̖̞̈́͊͛a̵̛̰͈͗l̴̡̛̗̐g̸̢̈́o̷",
  '\'; DROP TABLE "Message"; --',
  "%s%s%n",
  "$" + "{jndi:ldap://x}",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "\r\n\r\nHTTP/1.1 200 OK",
  "null",
  "__proto__",
  "constructor",
  "1e309",
  "-0",
  "q_",
  "__user__",
  "x".repeat(70_000),
];

export const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -2_147_483_649,
  2_147_483_647,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** Anything at all: the wrong type for a field. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, ...NASTY_NUMBERS, ...NASTY_STRINGS),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.object({ maxDepth: 2, key: fc.constantFrom("__proto__", "constructor", "a", "toString") }),
);

const nastyString = fc.constantFrom(...NASTY_STRINGS);

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 200, 200);
  const fitting = s.pattern
    ? fc
        .stringMatching(new RegExp(s.pattern))
        .filter((x) => x.length >= min && x.length <= (s.maxLength ?? 1e9))
    : fc.string({
        unit: fc.constantFrom("a", "b", "Z", "0", " ", "é", "—", "\n", "😀", "\u202E"),
        minLength: min,
        maxLength: max,
      });
  const edges = [
    fc.constant("x".repeat(min)),
    fc.constant("y".repeat(s.maxLength ?? 1000)),
    fc.constant("z".repeat((s.maxLength ?? 1000) + 1)),
  ];
  return fc.oneof(
    { weight: 6, arbitrary: fitting },
    { weight: 2, arbitrary: nastyString },
    ...edges.map((a) => ({ weight: 1, arbitrary: a })),
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo =
    s.minimum ?? (s.exclusiveMinimum === undefined ? -1000 : s.exclusiveMinimum + (integer ? 1 : 1e-9));
  const hi = Math.min(s.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
  const inRange = integer
    ? fc.integer({ min: Math.max(lo, Number.MIN_SAFE_INTEGER), max: Math.max(lo, hi) })
    : fc.double({ min: lo, max: Math.max(lo, hi), noNaN: true });
  const small = fc.integer({ min: 0, max: 12 }); // ids that exist in the fixture
  const bounds = fc.constantFrom(lo, hi, lo - 1, hi + 1, ...NASTY_NUMBERS);
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 3, arbitrary: inRange },
    { weight: 2, arbitrary: bounds },
  );
}

/** Values for `schema`, mostly valid, sometimes not; `defs` resolves `$ref`s; `depth` bounds recursion. */
export function fromSchema(
  schema: Schema,
  defs: Record<string, Schema> = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = schema.$ref ? (defs[schema.$ref.replace(/^#\/\$defs\//, "")] ?? {}) : schema;
  const wrong = { weight: 1, arbitrary: anyValue };
  const inner = (): fc.Arbitrary<unknown> => {
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const alts = s.anyOf ?? s.oneOf;
    if (alts) return fc.oneof(...alts.map((a) => fromSchema(a, defs, depth + 1)));
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case "string":
        return stringArb(s);
      case "integer":
        return numberArb(s, true);
      case "number":
        return numberArb(s, false);
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "array": {
        if (depth > 4) return fc.constant([]);
        const min = s.minItems ?? 0;
        const max = Math.min(s.maxItems ?? 5, min + 5);
        const items = s.items ? fromSchema(s.items, defs, depth + 1) : anyValue;
        return fc.oneof(
          { weight: 5, arbitrary: fc.array(items, { minLength: min, maxLength: max }) },
          {
            weight: 1,
            arbitrary: fc.array(items, {
              minLength: (s.maxItems ?? 50) + 1,
              maxLength: (s.maxItems ?? 50) + 1,
            }),
          },
        );
      }
      default:
        return objectArb(s, defs, depth);
    }
  };
  return depth > 6 ? anyValue : fc.oneof({ weight: 12, arbitrary: inner() }, wrong);
}

function objectArb(s: Schema, defs: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) fields[k] = fromSchema(v, defs, depth + 1);
  const optional = Object.keys(props).filter((k) => !required.has(k));
  const base = fc.record(fields, { requiredKeys: [...required].filter((k) => k in fields) as never[] });
  const dropRequired = fc.record(fields, { requiredKeys: [] });
  const extra = fc.dictionary(
    fc.constantFrom("extra", "__proto__", "constructor", "id", "owner_id", "goal_id"),
    anyValue,
    {
      maxKeys: 2,
    },
  );
  void optional;
  return fc.oneof(
    { weight: 8, arbitrary: base },
    { weight: 1, arbitrary: dropRequired },
    { weight: 1, arbitrary: fc.tuple(base, extra).map(([b, e]) => ({ ...(b as object), ...e })) },
  );
}

/** fast-check settings from the environment: FUZZ_RUNS (default `runs`), FUZZ_SEED (printed on failure). */
export function fuzzParams(runs: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
  return {
    numRuns: process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : runs,
    ...(seed === undefined ? {} : { seed }),
    endOnFailure: true,
  };
}

export type { Schema };
