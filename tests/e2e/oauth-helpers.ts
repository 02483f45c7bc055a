import { expect, type Page } from "@playwright/test";

/** On the school's login page an authorization request led to: signs the member in and allows the consent. */
export async function signInAndAllow(page: Page, email: string, password = "schoolhouse-demo"): Promise<void> {
  await expect(page).toHaveURL(/\/login\?/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await page.getByRole("button", { name: "Allow" }).click();
}
