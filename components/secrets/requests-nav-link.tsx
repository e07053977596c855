import { NavLink } from "@/components/shell/nav-link";
import { requireOwner } from "@/lib/auth/require-owner";
import { countOpenRequests } from "@/lib/domain/secrets/owner-requests";

/** "Requests" in the top navigation, with the number of open resource requests. */
export async function RequestsNavLink() {
  const owner = await requireOwner();
  const n = await countOpenRequests(owner.userId);
  return (
    <NavLink href="/requests">
      Requests
      {n > 0 ? (
        <span
          className="ml-1.5 rounded-full bg-rose-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums"
          data-testid="nav-request-count"
        >
          {n}
        </span>
      ) : null}
    </NavLink>
  );
}
