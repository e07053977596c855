import { ownerCosts, ownerCostsCsv, ownerCostsQuery } from "@/lib/domain/usage/owner-costs";
import { ownerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

// GET /api/costs?group_by=goal|agent|billing_code|model&from&to&limit&page[&format=csv] – spend across the owner's goals
export const GET = ownerRoute(async ({ owner, req }) => {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const { format, ...rest } = params;
  const q = ownerCostsQuery.parse(rest);
  if (format === "csv") {
    return new Response(await ownerCostsCsv(owner.userId, q), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="switchboard-costs-${q.group_by}.csv"`,
      },
    });
  }
  return ownerCosts(owner.userId, q);
});
