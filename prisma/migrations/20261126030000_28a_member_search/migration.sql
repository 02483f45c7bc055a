-- CreateIndex
CREATE INDEX "SchoolMembership_schoolId_createdAt_id_idx" ON "SchoolMembership"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Subscription_schoolId_userId_idx" ON "Subscription"("schoolId", "userId");

-- CreateIndex
CREATE INDEX "Enrollment_schoolId_createdAt_id_idx" ON "Enrollment"("schoolId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Enrollment_courseId_createdAt_id_idx" ON "Enrollment"("courseId", "createdAt", "id");

-- Member search (lib/membership/list-members.ts): prefix LIKE on the email and the lower-cased name.
-- text_pattern_ops compares bytes, so the planner turns `LIKE 'abc%'` into an index range whatever
-- the database's collation (a default-opclass index serves LIKE only under the C collation).
-- Written by hand: schema.prisma cannot declare an operator class on a btree or an expression index.
CREATE INDEX "User_email_prefix_idx" ON "User"("email" text_pattern_ops);
CREATE INDEX "User_name_prefix_idx" ON "User"(lower("name") text_pattern_ops);
