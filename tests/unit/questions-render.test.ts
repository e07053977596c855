// answer_text rendering and answer checking for every shape of question (lib/domain/questions/render.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkAnswers, renderAnswerText } from "@/lib/domain/questions/render";
import type { SubQuestion } from "@/lib/domain/questions/schemas";

const single: SubQuestion = {
  question: "DB?",
  header: "Database",
  multiSelect: false,
  options: [
    { label: "PostgreSQL", description: "", value: "pg" },
    { label: "SQLite", description: "" },
    { label: "Custom", description: "", requires_text: true },
  ],
};
const multi: SubQuestion = {
  question: "Where?",
  header: "Platforms",
  multiSelect: true,
  options: [
    { label: "Web", description: "" },
    { label: "iOS", description: "", value: "ios" },
  ],
};
const free: SubQuestion = { question: "Notes?", header: "", multiSelect: false, options: [] };

const render = (qs: SubQuestion[], a: { selected_labels: string[]; text: string | null }[]) =>
  renderAnswerText(qs, checkAnswers(qs, a));

test("single-select renders the chosen label with its header; values fall back to the label", () => {
  assert.equal(render([single], [{ selected_labels: ["PostgreSQL"], text: null }]), "Database: PostgreSQL");
  assert.deepEqual(
    checkAnswers([single], [{ selected_labels: ["SQLite"], text: null }])[0]?.selected_values,
    ["SQLite"],
  );
  assert.deepEqual(
    checkAnswers([single], [{ selected_labels: ["PostgreSQL"], text: null }])[0]?.selected_values,
    ["pg"],
  );
});

test("single-select 'Other' renders the typed text; requires_text appends it after the label", () => {
  assert.equal(render([single], [{ selected_labels: [], text: "MySQL" }]), "Database: MySQL");
  assert.equal(
    render([single], [{ selected_labels: ["Custom"], text: "FoundationDB" }]),
    "Database: Custom: FoundationDB",
  );
});

test("multi-select joins labels with commas; free text renders the text with no prefix for an empty header", () => {
  assert.equal(render([multi], [{ selected_labels: ["Web", "iOS"], text: null }]), "Platforms: Web, iOS");
  assert.equal(render([free], [{ selected_labels: [], text: "none" }]), "none");
});

test("grouped questions render one line each, in order", () => {
  assert.equal(
    render(
      [single, multi, free],
      [
        { selected_labels: ["SQLite"], text: null },
        { selected_labels: ["iOS"], text: null },
        { selected_labels: [], text: "ship it" },
      ],
    ),
    "Database: SQLite\nPlatforms: iOS\nship it",
  );
});

test("answers that do not fit are refused, naming the answer index and field", () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return `${(e as { code: string }).code} ${(e as Error).message}`;
    }
    return "ok";
  };
  assert.match(
    code(() => checkAnswers([single, free], [{ selected_labels: ["SQLite"], text: null }])),
    /^answer_count_mismatch/,
  );
  assert.match(
    code(() => checkAnswers([single], [{ selected_labels: ["Oracle"], text: null }])),
    /answers\[0\]\.selected_labels/,
  );
  assert.match(
    code(() => checkAnswers([single], [{ selected_labels: ["SQLite", "PostgreSQL"], text: null }])),
    /answers\[0\]\.selected_labels/,
  );
  assert.match(
    code(() => checkAnswers([single], [{ selected_labels: [], text: null }])),
    /answers\[0\]\.text/,
  );
  assert.match(
    code(() => checkAnswers([single], [{ selected_labels: ["Custom"], text: " " }])),
    /answers\[0\]\.text/,
  );
  assert.match(
    code(() => checkAnswers([single], [{ selected_labels: ["SQLite"], text: "why" }])),
    /answers\[0\]\.text/,
  );
  assert.match(
    code(() => checkAnswers([multi], [{ selected_labels: [], text: "Android" }])),
    /answers\[0\]\.selected_labels/,
  );
  assert.match(
    code(() => checkAnswers([free], [{ selected_labels: ["x"], text: "y" }])),
    /answers\[0\]\.selected_labels/,
  );
  assert.match(
    code(() => checkAnswers([free], [{ selected_labels: [], text: "" }])),
    /answers\[0\]\.text/,
  );
});
