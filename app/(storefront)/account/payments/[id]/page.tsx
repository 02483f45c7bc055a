import Link from "next/link";
import { notFound } from "next/navigation";
import { memberPayment, memberProfile, paymentFor } from "@/lib/account/queries";
import { AccountShell, accountMetadata, accountPage, formatDateTime, type Search } from "../../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Receipt");

const STATES: Record<string, string> = { pending: "Pending", succeeded: "Paid", failed: "Failed", refunded: "Refunded" };

/** A printable receipt (print hides the site's header, footer and the account navigation). */
export default async function ReceiptPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const search = await searchParams;
  const { member, school } = await accountPage("/account/payments", true);
  const payment = await memberPayment({ ...member, id });
  if (!payment) notFound();
  const profile = await memberProfile(member);
  return (
    <AccountShell current="payments" title={`Receipt · ${school.name}`} params={search}>
      <dl className="facts">
        <dt>Receipt number</dt>
        <dd>{payment.id}</dd>
        <dt>Billed to</dt>
        <dd>
          {profile.name} ({profile.email})
        </dd>
        <dt>For</dt>
        <dd>{paymentFor(payment)}</dd>
        {payment.billingReason === "one_time" ? (
          <>
            <dt>Payment</dt>
            <dd>One-time purchase, no subscription</dd>
          </>
        ) : null}
        <dt>Amount</dt>
        <dd>
          {payment.amount.toFixed(2)} {payment.currency}
        </dd>
        <dt>Status</dt>
        <dd>{STATES[payment.state] ?? payment.state}</dd>
        <dt>Date</dt>
        <dd>{formatDateTime(payment.paidAt ?? payment.createdAt)}</dd>
        <dt>Seller</dt>
        <dd>
          {school.name}
          {school.contactEmail ? ` · ${school.contactEmail}` : ""}
        </dd>
      </dl>
      <p className="no-print">
        <Link href="/account/payments">Back to your payments</Link> · Use your browser&apos;s Print command for a paper copy.
      </p>
    </AccountShell>
  );
}
