// Integration setup: every test file gets its own migrated database, installed as the process's db().
import { afterAll, beforeAll } from "vitest";
import { setDbHandle } from "@/lib/db/client";
import { clearContentCache } from "@/lib/db/content-cache";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { createTestDb, type TestDb } from "../helpers/test-db";

let testDb: TestDb | undefined;

beforeAll(async () => {
  testDb = await createTestDb();
  setDbHandle(testDb.handle);
  clearSchoolCache();
  clearContentCache();
}, 60_000);

afterAll(async () => {
  setDbHandle(undefined);
  await testDb?.dispose();
});
