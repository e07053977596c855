// A link from a notification (mail, webhook, Slack without an app): confirm, then act once. Opening the
// link does nothing by itself (mail scanners open links); an expired, used or forged link shows the card
// in the app instead.
import { redirect } from "next/navigation";
import { ConfirmAction } from "@/components/notifications/confirm-action";
import { describeAction } from "@/lib/domain/notifications/actions";

export const dynamic = "force-dynamic";

export default async function ActionPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const d = await describeAction(token);
  if (!d.usable) redirect(d.link);
  return (
    <main className="mx-auto max-w-md space-y-4 px-6 py-16">
      <h1 className="text-xl font-semibold text-slate-900">Switchboard</h1>
      <ConfirmAction token={token} text={d.text} detail={d.detail} link={d.link} />
    </main>
  );
}
