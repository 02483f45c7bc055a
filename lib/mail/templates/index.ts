import type { MailKind } from "../enqueue";
import type { MailTemplate } from "../template";
import { emailChanged } from "./email-changed";
import { passwordReset } from "./password-reset";
import { paymentFailed } from "./payment-failed";
import { paymentRefunded } from "./payment-refunded";
import { purchaseReceipt } from "./purchase-receipt";
import { renewalReceipt } from "./renewal-receipt";
import { subscriptionCanceled } from "./subscription-canceled";
import { subscriptionEndingSoon } from "./subscription-ending-soon";
import { verifyEmail } from "./verify-email";
import { welcome } from "./welcome";

/** Every kind's template (a new kind: its file here, and its name in MAIL_KINDS). */
export const MAIL_TEMPLATES: Record<MailKind, MailTemplate> = {
  welcome,
  "verify-email": verifyEmail,
  "password-reset": passwordReset,
  "purchase-receipt": purchaseReceipt,
  "renewal-receipt": renewalReceipt,
  "payment-failed": paymentFailed,
  "payment-refunded": paymentRefunded,
  "subscription-canceled": subscriptionCanceled,
  "subscription-ending-soon": subscriptionEndingSoon,
  "email-changed": emailChanged,
};
