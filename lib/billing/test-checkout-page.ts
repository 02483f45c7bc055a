// The test provider's hosted checkout page, on the school's origin (Stripe Checkout's place in the
// test provider): GET /checkout/test/<cs_test_…> shows the order and a card field, POST
// /api/checkout/test/<cs_test_…> pays it. Marked "Test mode" on every answer. A declined card
// shows the card's message and leaves the checkout open; a paid one goes back to the success URL.
import { displayPrice } from "../storefront/format";
import { requestContext } from "../tenancy/request-context";
import { checkoutPage, escapeHtml, summaryHtml } from "./checkout-html";
import { isSameOriginPost } from "../http/same-origin";
import { guardedCheckout, readForm } from "./checkout-requests";
import { now as clockNow } from "../clock";
import { findTestCheckout, type TestCheckoutRow } from "./test-checkout";
import { payTestHostedCheckout } from "./test-provider";

export const TEST_CHECKOUT_PAY_PATH = "/api/checkout/test";

const idOf = (request: Request) => new URL(request.url).pathname.split("/").pop() ?? "";

async function schoolName(request: Request): Promise<string> {
  return (await requestContext(request).school())?.name ?? "Schoolhouse";
}

function page(options: { status: number; school: string; row: TestCheckoutRow; error?: string; closed?: string }): Response {
  const { row } = options;
  const amount = row.amount.isZero() ? `Nothing now (${row.description})` : displayPrice(row.amount.toFixed(2), row.currency);
  const parts = [summaryHtml([["Item", row.description], ["Due today", amount], ["Email", row.customerEmail ?? ""]])];
  if (options.error) parts.unshift(`<p class="error" role="alert">${escapeHtml(options.error)}</p>`);
  if (options.closed) {
    parts.push(`<p>${escapeHtml(options.closed)}</p><p><a href="${escapeHtml(row.status === "complete" ? row.successUrl : row.cancelUrl)}">Continue</a></p>`);
  } else {
    const label = row.amount.isZero() ? "Save card and start trial" : `Pay ${displayPrice(row.amount.toFixed(2), row.currency)}`;
    parts.push(`<form method="post" action="${TEST_CHECKOUT_PAY_PATH}/${escapeHtml(row.id)}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required maxlength="32" aria-describedby="cards">
<p id="cards" class="note">Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds; 4000 0000 0000 0341 pays now and fails on renewal.</p>
<button type="submit">${escapeHtml(label)}</button></form>
<p><a href="${escapeHtml(row.cancelUrl)}">Cancel and go back</a></p>`);
  }
  return checkoutPage({ status: options.status, schoolName: options.school, title: "Test payment", body: parts.join("\n"), testMode: true });
}

const notFound = (school: string) =>
  checkoutPage({ status: 404, schoolName: school, title: "Test payment", body: `<p class="error" role="alert">There is no test checkout at this address.</p>`, testMode: true });

/** The row, when it belongs to a checkout of this host (its return URL is on this origin). */
async function rowFor(request: Request): Promise<TestCheckoutRow | null> {
  const row = await findTestCheckout(idOf(request));
  if (!row || new URL(row.successUrl).origin !== requestContext(request).origin) return null;
  return row;
}

export async function handleTestCheckoutPage(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const school = await schoolName(request);
    const row = await rowFor(request);
    if (!row) return notFound(school);
    const closed = row.status === "complete" ? "This checkout is already paid." : row.status === "expired" || row.expiresAt <= clockNow() ? "This checkout expired; nothing was charged." : undefined;
    return page({ status: 200, school, row, closed });
  });
}

export async function handleTestCheckoutPay(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const school = await schoolName(request);
    const form = await readForm(request, school);
    if (form instanceof Response) return form;
    const row = await rowFor(request);
    if (!row) return notFound(school);
    if (!isSameOriginPost(request.headers, requestContext(request).origin)) return page({ status: 403, school, row, error: "This form did not come from this page. Nothing was charged." });
    const outcome = await payTestHostedCheckout({ id: row.id, card: (form.get("card") ?? "").slice(0, 32) });
    switch (outcome.kind) {
      case "paid":
        return new Response(null, { status: 303, headers: { location: outcome.successUrl, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
      case "declined":
        return page({ status: 402, school, row, error: `${outcome.message} Nothing was charged; try another card.` });
      case "closed":
        return page({ status: 409, school, row: { ...row, status: outcome.status }, closed: outcome.status === "complete" ? "This checkout is already paid." : outcome.status === "expired" ? "This checkout expired; nothing was charged." : "A payment of this checkout is in progress." });
      case "not_found":
        return notFound(school);
    }
  });
}
