import { expect, test } from "@playwright/test";

// /dev/mail lists the filed mails under `next dev` only: a production build answers 404 there,
// whatever the configuration (the suite's server is `next start` without MAIL_URL, the case where
// mails are filed). Its development rendering is not run here: `next dev` compiling under the
// suite's load is too slow for a spec (docs/decisions.md, "Mail").
test("/dev/mail is a 404 in production, with nothing of the outbox in it", async ({ page }) => {
  const res = await page.goto("/dev/mail");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Mail outbox" })).toHaveCount(0);
  expect(await page.content()).not.toContain("MAIL_OUTBOX_DIR");
});
