import { listResources, listResourcesInput, listResourcesOutput } from "@/lib/domain/secrets/list-resources";
import {
  requestResource,
  requestResourceInput,
  requestResourceOutput,
} from "@/lib/domain/secrets/request-resource";
import { defineTool } from "../registry";

export const requestResourceTool = defineTool({
  name: "request_resource",
  title: "Ask the owner for a credential",
  audience: "agent",
  readOnly: false,
  destructive: false,
  idempotent: true,
  description: [
    "Ask the human owner for a missing credential or resource (an API key, a token, a URL, a file) that a task of your",
    "goal needs. The value is never returned via MCP: when the owner supplies it, your inbox says so, and it is in the",
    "environment of your next launch as $NAME. If the owner declines, the reason arrives in your inbox. Asking again",
    "for the same name and task while the request is open returns the same request. Check list_resources first:",
    "the name may be available already.",
  ].join(" "),
  errors: ["not_found"],
  input: requestResourceInput,
  output: requestResourceOutput,
  handler: ({ caller }, input) => requestResource(caller, input),
});

export const listResourcesTool = defineTool({
  name: "list_resources",
  title: "List the secrets in your scope",
  audience: "agent",
  readOnly: true,
  destructive: false,
  idempotent: true,
  description: [
    "List the names of secrets available to you: your owner's (all their agents), your own, and a task's when you",
    "pass task_id (a task of your goal). available=false: the name exists but has no value (revoked). Values are never",
    "returned; an available name is in the environment of your next launch (task > agent > user for the same name).",
  ].join(" "),
  errors: ["not_found"],
  input: listResourcesInput,
  output: listResourcesOutput,
  handler: ({ caller }, input) => listResources(caller, input),
});
