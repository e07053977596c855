import { z } from "zod";
import { listPeers, listPeersInput, peerView } from "@/lib/domain/agents/list-peers";
import { readInbox, readInboxInput, readInboxOutput } from "@/lib/domain/messages/read-inbox";
import { sendMessage, sendMessageInput, sendMessageOutput } from "@/lib/domain/messages/send-message";
import { defineTool } from "../registry";

export const sendMessageTool = defineTool({
  name: "send_message",
  title: "Send a message to another agent",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  description:
    "Put a message in another agent's inbox (the only agent-to-agent primitive). `to` is an agent_id from list_peers.",
  errors: ["unknown_recipient", "task_mismatch", "recipient_terminated", "inbox_full"],
  input: sendMessageInput,
  output: sendMessageOutput,
  handler: ({ caller }, input) => sendMessage(caller, input),
});

export const listPeersTool = defineTool({
  name: "list_peers",
  title: "List the agents around you",
  audience: "agent",
  readOnly: true,
  destructive: false,
  idempotent: true,
  errors: [],
  description:
    "Read the team graph. scope=team (default): your direct teammates; children: the members of teams you lead; all: every agent of your goal. agent_id is the stable id to message; name is a display label.",
  input: listPeersInput,
  output: z.object({ peers: z.array(peerView) }),
  handler: ({ caller }, input) => listPeers(caller, input.scope),
});

export const readInboxTool = defineTool({
  name: "read_inbox",
  title: "Read your inbox",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: false,
  errors: ["rate_limited"],
  description: [
    "Read the messages waiting for you, oldest first (from an agent_id, `__user__` for the owner, or `system`).",
    "Pass the `ack` value of your previous call as `ack` to confirm you received those messages; unconfirmed",
    "messages are handed out again, so nothing is lost if a reply is cut off. Set wait_seconds (e.g. 30) to wait",
    "for the next message instead of polling; the call returns as soon as one arrives. `more` is true when further",
    "messages are waiting beyond `limit`.",
  ].join(" "),
  input: readInboxInput,
  output: readInboxOutput,
  waits: (input) => input.wait_seconds > 0,
  handler: ({ caller, signal, progress }, input) =>
    readInbox(caller, input, {
      signal,
      onProgress: (ms) => progress(ms / 1000, `waiting for messages (${Math.round(ms / 1000)} s)`),
    }),
});
