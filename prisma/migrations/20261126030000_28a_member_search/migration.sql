-- CreateIndex
CREATE INDEX "SchoolMembership_schoolId_createdAt_id_idx" ON "SchoolMembership"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Subscription_schoolId_userId_idx" ON "Subscription"("schoolId", "userId");

-- CreateIndex
CREATE INDEX "Enrollment_schoolId_createdAt_id_idx" ON "Enrollment"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Enrollment_courseId_createdAt_id_idx" ON "Enrollment"("courseId", "createdAt", "id");

-- Member search (lib/membership/list-members.ts): prefix LIKE on the email and on the lower-cased
-- name, walked in the index's order so a page stops after its rows. COLLATE "C" (byte order) lets
-- the planner turn `LIKE 'abc%'` into an index range whatever the database's collation, and is the
-- order the pages follow; the name index ends with the id, the tie-breaker of equal names.
-- Written by hand: schema.prisma cannot declare a collation or an expression in an index.
CREATE INDEX "User_email_prefix_idx" ON "User"("email" COLLATE "C");
CREATE INDEX "User_name_prefix_idx" ON "User"(lower("name") COLLATE "C", "id");

-- Live subscriptions by end date (settle's "anything due?" read) are indexed by the earlier
-- migration 30_flat_cost_indexes (Subscription_live_endAt_idx).
