// /mcp – the MCP endpoint (see lib/mcp/http.ts; `npm start` serves it before Next's pipeline, server/main.ts)
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

export { handleMcpRequest as DELETE, handleMcpRequest as GET, handleMcpRequest as POST };
