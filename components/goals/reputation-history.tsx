import type { reputationHistory } from "@/lib/domain/reputation/reputation";

type Entry = ReturnType<typeof reputationHistory>[number];

/**
 * Issue 13: the evidence behind an agent's reputation (newest first), folded under its score in the agents
 * table: each verdict or seed, its domain, delta (×weight) and the domain score it left.
 */
export function ReputationHistory({ history }: { history: Entry[] }) {
  if (history.length === 0) return null;
  return (
    <details className="mt-1 text-xs" data-testid="reputation-history">
      <summary className="cursor-pointer text-slate-500 select-none">history</summary>
      <ol className="mt-1 space-y-0.5 whitespace-nowrap">
        {history.map((h) => (
          <li key={`${h.at}-${h.task_id ?? "seed"}-${h.domain}`} data-testid="reputation-entry">
            <span className={h.delta < 0 ? "text-rose-700" : "text-emerald-700"}>
              {h.delta > 0 ? "+" : ""}
              {h.delta.toFixed(2)}
              {h.weight !== 1 ? ` ×${h.weight}` : ""}
            </span>{" "}
            {h.kind === "seed" ? "seed" : `task #${h.task_id}`} · {h.domain} → {h.score_after.toFixed(2)}{" "}
            <time className="text-slate-400" dateTime={h.at}>
              {h.at.slice(0, 16).replace("T", " ")}
            </time>
          </li>
        ))}
      </ol>
    </details>
  );
}
