// Shown for a goal that does not exist or belongs to another owner (the two are indistinguishable).
import Link from "next/link";

export default function GoalNotFound() {
  return (
    <div className="rounded-lg bg-white px-6 py-16 text-center shadow-xs ring-1 ring-slate-200">
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="mt-2 text-xl font-semibold text-slate-900">Goal not found</h1>
      <p className="mt-2 text-sm text-slate-500">It does not exist, or it belongs to another owner.</p>
      <Link href="/goals" className="mt-6 inline-block text-sm font-medium text-slate-900 underline">
        Back to your goals
      </Link>
    </div>
  );
}
