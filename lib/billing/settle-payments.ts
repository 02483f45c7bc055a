import type { Payment, Prisma } from "../db/generated/client";
import type { ChargeResult } from "./provider";

type Tx = Prisma.TransactionClient;

// One statement for any number of payments: the renewal run records a whole batch with it.
const SETTLE_SQL = `
UPDATE "Payment" p
   SET "state" = x."state"::"PaymentState",
       "providerPaymentId" = x."providerPaymentId",
       "paidAt" = CASE WHEN x."state" = 'succeeded' THEN $2::timestamptz ELSE p."paidAt" END,
       "failedAt" = CASE WHEN x."state" = 'failed' THEN $2::timestamptz ELSE p."failedAt" END,
       "failureCode" = CASE WHEN x."state" = 'failed' THEN x."failureCode" ELSE p."failureCode" END,
       "failureMessage" = CASE WHEN x."state" = 'failed' THEN x."failureMessage" ELSE p."failureMessage" END,
       "updatedAt" = $2::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS x("id" uuid, "state" text, "providerPaymentId" text, "failureCode" text, "failureMessage" text)
 WHERE p."id" = x."id" AND p."state" = 'pending'
RETURNING p."id"::text AS "id"`;

/**
 * Records the provider's answers to pending payments' charges: succeeded (paidAt) or failed (the
 * decline's code and message). Only a payment still pending takes an outcome, so a second recorder
 * (a worker that lost its lease, a webhook's reconciliation, the verb's own retry) changes nothing.
 * Returns the payments this call moved, as stored; the others were recorded by someone else first.
 */
export async function settlePayments(tx: Tx, options: { results: { payment: Payment; result: ChargeResult }[]; now: Date }): Promise<Payment[]> {
  const { results, now } = options;
  if (!results.length) return [];
  const rows = results.map(({ payment, result }) => ({
    id: payment.id,
    state: result.status,
    providerPaymentId: result.providerPaymentId,
    failureCode: result.status === "failed" ? result.failureCode : null,
    failureMessage: result.status === "failed" ? result.failureMessage : null,
  }));
  const moved = await tx.$queryRawUnsafe<{ id: string }[]>(SETTLE_SQL, JSON.stringify(rows), now);
  if (!moved.length) return [];
  return tx.payment.findMany({ where: { id: { in: moved.map((m) => m.id) } } });
}
