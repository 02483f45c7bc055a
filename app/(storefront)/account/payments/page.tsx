import Link from "next/link";
import { memberPayments, paymentFor } from "@/lib/account/queries";
import { AccountShell, accountMetadata, accountPage, formatDate, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Payments");

const PAYMENT_STATES: Record<string, string> = { pending: "Pending", succeeded: "Paid", failed: "Failed", refunded: "Refunded" };

export default async function PaymentsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member } = await accountPage("/account/payments", one(params.cookie_check) === "1");
  const payments = await memberPayments(member);
  return (
    <AccountShell current="payments" title="Payments" params={params}>
      {payments.length === 0 ? (
        <p>No payments yet: nothing has been charged to you at this school.</p>
      ) : (
        <ul className="account-items">
          {payments.map((p) => (
            <li key={p.id} className="card">
              <p>
                <strong>
                  {p.amount.toFixed(2)} {p.currency}
                </strong>{" "}
                · {paymentFor(p)} · {PAYMENT_STATES[p.state] ?? p.state} · {formatDate(p.paidAt ?? p.createdAt)}
              </p>
              <Link href={`/account/payments/${p.id}`}>Receipt for {formatDate(p.paidAt ?? p.createdAt)}</Link>
            </li>
          ))}
        </ul>
      )}
    </AccountShell>
  );
}
