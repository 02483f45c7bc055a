import type { MailTemplate } from "../template";
import { text } from "./billing-format";
import { receiptContent } from "./purchase-receipt";

/** After a renewal (or a retry of one) was paid. */
export const renewalReceipt: MailTemplate = {
  kind: "renewal-receipt",
  description: "Receipt for a renewal (each later successful charge, retries included)",
  async render(ctx) {
    return receiptContent(ctx, {
      subject: `Your renewal receipt from ${ctx.school.name}`,
      heading: "Your membership is renewed",
      paragraph: `We charged your card for the next period of your ${text(ctx.params.plan)} membership at ${ctx.school.name}.`,
    });
  },
};
