import type { Payment } from "../db/generated/client";
import type { ChargeResult, PaymentProviderPort } from "./provider";
import { providerOfPayment } from "./provider-for";

/**
 * Asks the provider for a pending payment's charge, outside any transaction (a renewal, a retry,
 * an upgrade's proration, and their reconciliation). `reconcile`: the payment was pending before
 * (a time-out, a crash), so the provider's record of its key is read first: a charge made before the
 * answer was lost is found, never made again. Otherwise (or when the provider has none) it is
 * charged with the payment's idempotency key. An upgrade's proration is always off-session: the
 * member is not at the provider's page. Throws ProviderUnavailableError when the outcome is unknown
 * (the payment then stays pending).
 */
export async function sendCharge(options: { payment: Payment; reconcile: boolean; provider?: PaymentProviderPort }): Promise<ChargeResult> {
  const { payment, reconcile } = options;
  const provider = options.provider ?? (await providerOfPayment({ schoolId: payment.schoolId, provider: payment.provider }));
  const found = reconcile ? await provider.findCharge({ idempotencyKey: payment.idempotencyKey! }) : null;
  return (
    found ??
    provider.charge({
      idempotencyKey: payment.idempotencyKey!,
      amount: payment.amount.toFixed(2),
      currency: payment.currency,
      paymentMethodId: payment.paymentMethodId ?? "",
      offSession: payment.offSession || payment.billingReason === "subscription_update",
    })
  );
}
