"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { Panel } from "@/components/ui/panel";
import type { EventView } from "@/lib/domain/events/list-events";
import type { FeedMessage } from "@/lib/domain/goals/queries";
import { EventTimeline } from "./event-timeline";
import { MessageFeed } from "./message-feed";
import { useGoalStream } from "./use-goal-stream";

/**
 * Events that change what the server-rendered parts of the page show (agents table, goal header). Not a
 * running agent's words (`agent_text`, `agent_output`): those are its transcript's, and would refresh the
 * page at every line.
 */
const CHANGES_PAGE =
  /^(agent_(?!(input|text|output)$)|goal_|goal\.|budget\.|team_|plan_|task_|status$|review\.|terminate\.|depth_warning|watchdog\.|idle\.|termination\.|question_)/;
const REFRESH_DELAY_MS = 500;

function LiveDot({ live }: { live: boolean }) {
  return (
    <span className="flex items-center gap-1.5 text-xs text-slate-500" data-testid="live-status">
      <span className={`size-2 rounded-full ${live ? "animate-pulse bg-emerald-500" : "bg-slate-300"}`} />
      {live ? "live" : "connecting…"}
    </span>
  );
}

export function GoalLive(props: { goalId: number; messages: FeedMessage[]; events: EventView[] }) {
  const router = useRouter();
  const refresh = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(refresh.current), []);
  const { messages, events, live } = useGoalStream(props.goalId, props, (e) => {
    if (!CHANGES_PAGE.test(e.event) || refresh.current !== undefined) return;
    refresh.current = setTimeout(() => {
      refresh.current = undefined;
      router.refresh();
    }, REFRESH_DELAY_MS);
  });
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <Panel title="Messages" actions={<LiveDot live={live} />} className="lg:col-span-2">
        <MessageFeed messages={messages} />
      </Panel>
      <Panel title="Events">
        <EventTimeline events={events} />
      </Panel>
    </div>
  );
}
