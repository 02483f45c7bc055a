import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../core/page";
import { CATALOG_KINDS } from "../storefront/search-catalog";

// Output schemas of the tools: the membership presenter's wire shapes (lib/membership/presenter.ts,
// Unix seconds, decimal strings) and the catalog entries. The SDK checks every structured result
// against them, so a drift between presenter and schema fails loudly in tests.

const unix = z.number().int().nullable();

export const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string() });

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  planType: z.string(),
  isLifetime: z.boolean(),
  interval: z.string().nullable(),
  intervalCount: z.number().int(),
  price: z.string(),
  currency: z.string(),
  lengthCount: z.number().int().nullable(),
  lengthInterval: z.string().nullable(),
  fixedEndAt: unix,
  status: z.string(),
});

export const subscriptionSchema = z.object({
  id: z.string(),
  cancelReason: z.string().nullable(),
  cancelType: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  currentPeriodStart: unix,
  currentPeriodEnd: unix,
  startAt: unix,
  endAt: unix,
  nextChargeDate: unix,
  cancelAt: unix,
  canceledAt: unix,
  isCanceling: z.boolean(),
  isCancellable: z.boolean(),
  plan: planSchema,
  planId: z.string(),
  state: z.string(),
  user: userSchema,
  collectionMethod: z.string(),
  pausedAt: unix,
  isPaused: z.boolean(),
  scheduledPlanId: z.string().nullable(),
});

export const paymentSchema = z.object({
  id: z.string(),
  amount: z.string(),
  currency: z.string(),
  state: z.string(),
  paidAt: unix,
  createdAt: z.number().int(),
  subscriptionId: z.string().nullable(),
  periodStart: unix,
  periodEnd: unix,
  billingReason: z.string().nullable(),
  provider: z.string(),
  providerPaymentId: z.string().nullable(),
  paymentMethodId: z.string().nullable(),
  attempt: z.number().int(),
  failureCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
  failedAt: unix,
  refundedAmount: z.string(),
  refundedAt: unix,
  planId: z.string().nullable(),
  userId: z.string().nullable(),
  courseId: z.string().nullable(),
  downloadId: z.string().nullable(),
  description: z.string().nullable(),
});

export const courseSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  status: z.string(),
  price: z.string().nullable(),
  currency: z.string().nullable(),
});

export const enrollmentSchema = z.object({ id: z.string(), createdAt: z.number().int(), course: courseSchema, user: userSchema });

export const catalogEntrySchema = z.object({
  kind: z.enum(CATALOG_KINDS),
  slug: z.string(),
  title: z.string(),
  url: z.string(),
  markdown_url: z.string(),
  summary: z.string(),
  price: z.object({ amount: z.string(), currency: z.string() }).nullable(),
});

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledAt: unix,
  disabledReason: z.string().nullable(),
  failingSince: unix,
  previousSecretExpiresAt: unix,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  payload: z.string(),
  status: z.string(),
  attemptCount: z.number().int(),
  nextAttemptAt: unix,
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  attempts: z.array(
    z.object({ attemptedAt: z.number().int(), durationMs: z.number().int(), statusCode: z.number().int().nullable(), error: z.string().nullable(), succeeded: z.boolean(), responseExcerpt: z.string().nullable() }),
  ),
});

/** Unix seconds as the Admin API takes them (GraphQL Int: 32-bit). */
export const unixSeconds = z.number().int().min(-2147483648).max(2147483647);

/** The Admin API's page sizes (lib/core/page.ts), stated in the schema so clients see the bound. */
export const pageSizeInput = z
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_SIZE)
  .optional()
  .describe(`Page size: 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`);

/** An email address as the Admin API takes it (at most 254 characters, compared case-insensitively). */
export const emailInput = (description: string) => z.string().max(254).describe(description);

export const writeOptions = {
  dry_run: z.boolean().optional().describe("true: check everything and return what would change, writing nothing"),
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("1 to 255 visible ASCII characters; a retry with the same key and arguments within 24 h replays the first result instead of writing again"),
};
