import { LocalTime } from "@/components/ui/local-time";
import type { EventView } from "@/lib/domain/events/list-events";

function summary(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ");
}

/** Events newest first, one line each. */
export function EventTimeline({ events }: { events: EventView[] }) {
  if (events.length === 0) {
    return <p className="px-5 py-10 text-center text-sm text-slate-500">No events yet.</p>;
  }
  return (
    <ol className="max-h-[36rem] divide-y divide-slate-100 overflow-y-auto" data-testid="event-timeline">
      {events.toReversed().map((e) => (
        <li key={e.seq} className="px-5 py-2 text-xs">
          <div className="flex items-center gap-2">
            <span className="font-mono font-medium text-slate-800">{e.event}</span>
            {e.agent_id === null ? null : <span className="text-slate-500">agent #{e.agent_id}</span>}
            <span className="ml-auto text-slate-400">
              <LocalTime iso={e.ts} mode="time" />
            </span>
          </div>
          <p className="mt-0.5 truncate font-mono text-slate-500" title={summary(e.data)}>
            {summary(e.data)}
          </p>
        </li>
      ))}
    </ol>
  );
}
