// Used by the Prisma CLI only (`prisma generate`, and `prisma migrate deploy` against DATABASE_URL).
// The app applies the same migrations itself with lib/db/migrator.ts.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/schoolhouse" },
});
