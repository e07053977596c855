// /mcp – the MCP endpoint (see lib/mcp/http.ts; `npm start` serves it before Next's pipeline, server/main.ts)
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

const handler = (req: Request) => handleMcpRequest(req);

export { handler as DELETE, handler as GET, handler as POST };
