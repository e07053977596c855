import { type TaskNode, treeCommands } from "@/lib/domain/proposals/task-tree";
import { showInvisible } from "@/lib/domain/proposals/visible-text";

/**
 * Every shell command the tree will have a runner execute, shown prominently and exactly: monospace, full
 * text, control, bidirectional and zero-width characters made visible (issue 16 §1, docs/goals.md).
 */
export function TreeCommands({ tree }: { tree: TaskNode }) {
  const commands = treeCommands(tree);
  if (commands.length === 0) return null;
  return (
    <section className="rounded-md border-2 border-amber-400 bg-amber-50 p-3" data-testid="tree-commands">
      <p className="text-sm font-semibold text-amber-900">
        Approving runs {commands.length === 1 ? "this command" : `these ${commands.length} commands`} on a
        runner (as an unprivileged user, in the task's workspace) when their tasks are completed:
      </p>
      <ol className="mt-2 space-y-2">
        {commands.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: commands of one proposal in fixed tree order
          <li key={i} className="text-xs text-amber-900">
            <span className="font-medium">{c.title}</span>
            {c.cwd ? ` · in ${showInvisible(c.cwd)}` : ""} · timeout {c.timeout_sec}s
            <pre
              className="mt-1 overflow-x-auto rounded bg-white p-2 font-mono text-sm whitespace-pre-wrap break-all text-slate-900 ring-1 ring-amber-300"
              data-testid="tree-command"
              dir="ltr"
            >
              {showInvisible(c.cmd)}
            </pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
