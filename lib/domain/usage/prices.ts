import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import builtin from "./prices.json";

/** Where the built-in table lives (named in errors so the operator knows what to edit). */
export const BUILTIN_PRICES_FILE = "lib/domain/usage/prices.json";

const price = z.number().nonnegative().max(100_000);
/** US dollars per million tokens of each kind. */
const modelPrice = z.object({ input: price, output: price, cache_read: price, cache_write: price }).strict();
const table = z.object({ $comment: z.string().optional(), models: z.record(z.string().min(1), modelPrice) });

export type ModelPrice = z.infer<typeof modelPrice>;
export type PriceTable = { file: string; models: Map<string, ModelPrice> };

/** Parse a price table; any problem is an Error naming the file and what is wrong with it. */
export function parsePriceTable(text: string | unknown, file: string): PriceTable {
  let json: unknown = text;
  if (typeof text === "string") {
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`The price table ${file} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const parsed = table.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`The price table ${file} is invalid: ${issues}`);
  }
  return { file, models: new Map(Object.entries(parsed.data.models)) };
}

let cached: PriceTable | undefined;

/**
 * The price table in use: SWITCHBOARD_PRICES_FILE when set, else the built-in one. Read once; the server
 * calls it at start so that a broken file stops the process with the file named (server/main.ts).
 */
export function priceTable(): PriceTable {
  if (cached) return cached;
  const file = env().SWITCHBOARD_PRICES_FILE;
  if (!file) {
    cached = parsePriceTable(builtin, BUILTIN_PRICES_FILE);
    return cached;
  }
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (e) {
    throw new Error(
      `The price table ${abs} (SWITCHBOARD_PRICES_FILE) cannot be read: ${(e as Error).message}`,
    );
  }
  cached = parsePriceTable(text, abs);
  return cached;
}

/**
 * The price of a model: its exact entry, else the longest entry it extends with a `-` suffix (a dated
 * release such as `claude-sonnet-4-5-20250929` uses `claude-sonnet-4-5`). Unknown → `unknown_model`.
 */
export function priceOf(model: string, t: PriceTable = priceTable()): ModelPrice {
  const exact = t.models.get(model);
  if (exact) return exact;
  let best: [string, ModelPrice] | undefined;
  for (const [name, p] of t.models) {
    if (model.startsWith(`${name}-`) && (!best || name.length > best[0].length)) best = [name, p];
  }
  if (best) return best[1];
  throw new DomainError("unknown_model", `No price for model "${model}" in the price table ${t.file}.`, {
    details: { model, price_file: t.file },
    hint: `Pass cost_cents yourself, use a model listed in ${t.file}, or ask the operator to add it.`,
  });
}

/** The list-price cost of a report, in micro-cents (1 cent = 1,000,000), rounded to the nearest micro-cent. */
export function costMicros(
  p: ModelPrice,
  t: { input: number; output: number; cacheRead: number; cacheWrite: number },
): number {
  // dollars per million tokens × 100 cents × 1e6 micro-cents / 1e6 tokens = price × 100 micro-cents per token
  return Math.round(
    (t.input * p.input + t.output * p.output + t.cacheRead * p.cache_read + t.cacheWrite * p.cache_write) *
      100,
  );
}
