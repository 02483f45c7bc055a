import type { Course, Enrollment, MembershipPlan, Subscription, User } from "../db/generated/client";

/** A subscription as every membership verb returns it: with its plan and its member. */
export type SubscriptionRecord = Subscription & { plan: MembershipPlan; user: User };
export const subscriptionInclude = { plan: true, user: true } as const;

/** An enrollment as enrollStudentToCourse and the member's list return it. */
export type EnrollmentRecord = Enrollment & { course: Course; user: User };
