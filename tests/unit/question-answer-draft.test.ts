// The owner's question form sends what the server accepts: its check is the REST schema plus the
// domain's answer check (checkAnswers), not a copy of them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerBody, declinable, OTHER, toEntry } from "@/components/questions/answer-draft";
import { LIMITS, type SubQuestion } from "@/lib/domain/questions/schemas";

const free: SubQuestion = { question: "Anything else?", header: "", multiSelect: false, options: [] };
const launch: SubQuestion = {
  question: "Launch date?",
  header: "Launch",
  multiSelect: false,
  options: [
    { label: "This week", description: "Fast" },
    { label: "Custom", description: "Pick a date", requires_text: true },
  ],
};
const platforms: SubQuestion = {
  question: "Platforms?",
  header: "Platforms",
  multiSelect: true,
  options: [
    { label: "Web", description: "w" },
    { label: "Android", description: "a" },
  ],
};
const draft = (selected: string[] = [], text = "") => ({ selected, text });

test("a free-text answer over the server's text limit cannot be sent (the old form let it through)", () => {
  const long = answerBody([free], [draft([], "x".repeat(LIMITS.text + 1))]);
  assert.ok("blocker" in long, "blocked like the server would refuse it");
  assert.match(long.blocker, /8000/);
  const ok = answerBody([free], [draft([], "  No  ")]);
  assert.deepEqual(ok, { body: { answers: [{ selected_labels: [], text: "No" }] } });
});

test("requires_text: blocked with the domain's message until the text is typed", () => {
  const missing = answerBody([platforms, launch], [draft(["Web"]), draft(["Custom"])]);
  assert.ok("blocker" in missing);
  assert.equal(missing.blocker, 'Question 2: option "Custom" requires a text');
  const ok = answerBody([platforms, launch], [draft(["Web", "Android"]), draft(["Custom"], "June 1")]);
  assert.deepEqual(ok, {
    body: {
      answers: [
        { selected_labels: ["Web", "Android"], text: null },
        { selected_labels: ["Custom"], text: "June 1" },
      ],
    },
  });
});

test("nothing chosen, Other, and a text left over from an earlier choice", () => {
  const none = answerBody([launch], [draft()]);
  assert.ok("blocker" in none);
  assert.match(none.blocker, /choose an option/);
  assert.deepEqual(toEntry(launch, draft([OTHER], " Next month ")), {
    selected_labels: [],
    text: "Next month",
  });
  assert.ok("body" in answerBody([launch], [draft([OTHER], "Next month")]));
  // Text typed for "Custom", then "This week" chosen: the text box is hidden and nothing of it is sent.
  assert.deepEqual(toEntry(launch, draft(["This week"], "June 1")), {
    selected_labels: ["This week"],
    text: null,
  });
  const multiNone = answerBody([platforms], [draft()]);
  assert.ok("blocker" in multiNone);
  assert.match(multiNone.blocker, /at least one option/);
});

test("decline needs a reason the REST schema accepts", () => {
  assert.equal(declinable("   "), false);
  assert.equal(declinable("Not this quarter"), true);
  assert.equal(declinable("x".repeat(LIMITS.reason + 1)), false);
});
