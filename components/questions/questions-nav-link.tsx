import { NavLink } from "@/components/shell/nav-link";
import { requireOwner } from "@/lib/auth/require-owner";
import { countOwnerPending } from "@/lib/domain/questions/owner-questions";

/** "Questions" in the top navigation, with the number waiting for the owner. */
export async function QuestionsNavLink() {
  const owner = await requireOwner();
  const n = await countOwnerPending(owner.userId);
  return (
    <NavLink href="/questions">
      Questions
      {n > 0 ? (
        <span
          className="ml-1.5 rounded-full bg-rose-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums"
          data-testid="nav-question-count"
        >
          {n}
        </span>
      ) : null}
    </NavLink>
  );
}
