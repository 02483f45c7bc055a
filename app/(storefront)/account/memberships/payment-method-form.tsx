import { paymentMethodAnchor } from "@/lib/mail/templates/billing-format";
import { AccountField, AccountForm, SubmitButton } from "../_components/account";

interface Props {
  sub: { id: string; planName: string; state: string; lastDecline: string | null };
  csrfToken: string;
  /** Test mode: the test cards and what each does; null with a live provider. */
  testCards: { number: string; outcome: string }[] | null;
}

/**
 * "Update payment method" of one membership (updatePaymentMethod; the payment-failed mail links here
 * by its anchor). While past_due, saving it pays the overdue period at once.
 */
export function PaymentMethodForm({ sub, csrfToken, testCards }: Props) {
  const id = paymentMethodAnchor(sub.id);
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Payment method</h3>
      {sub.state === "past_due" ? (
        <p className="meta">
          {sub.lastDecline ? `The last payment was declined: ${sub.lastDecline} ` : ""}A new payment method pays the overdue amount at once.
        </p>
      ) : null}
      <AccountForm action="payment-method" csrfToken={csrfToken}>
        <input type="hidden" name="subscription" value={sub.id} />
        {testCards ? (
          <div id={`${id}-test`} className="meta">
            <p>
              <strong>Test mode</strong>: no money moves. Use one of these test cards:
            </p>
            <ul>
              {testCards.map((c) => (
                <li key={c.number}>
                  <code>{c.number}</code>: {c.outcome}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <AccountField label="Card number" type="text" name="card" inputMode="numeric" autoComplete="cc-number" maxLength={200} required aria-describedby={testCards ? `${id}-test` : undefined} />
        <SubmitButton>Update payment method</SubmitButton>
      </AccountForm>
    </section>
  );
}
