// A Stripe emulator for the tests of the Stripe adapter: the official SDK is pointed at it with its
// host/port/protocol options (useStripeApi). Charges, their card outcomes (Stripe's test tokens),
// customers and refunds (amount rules, "already refunded") are stripe-stateful-mock's, run
// in-process; what that package lacks (PaymentMethods, PaymentIntents and their search, Checkout
// Sessions, SetupIntents) is served here following Stripe's documented API shapes, on top of its
// charges. Objects are kept per secret key (one Stripe account per key), as Stripe keeps accounts
// apart, and every POST honours Idempotency-Key as Stripe does: the same key and parameters replay
// the first answer, the same key with other parameters is refused (idempotency_error).
// What this proves and what it does not: docs/deploy.md, "Stripe".
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import stripeStatefulMock from "stripe-stateful-mock";

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json };

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Stripe's pm_card_* test tokens → the charge token stripe-stateful-mock decides the outcome with (on-session, off-session). */
const CARD_TOKENS: Record<string, { onSession: string; offSession: string; authentication?: boolean; last4: string }> = {
  pm_card_visa: { onSession: "tok_visa", offSession: "tok_visa", last4: "4242" },
  pm_card_chargeDeclined: { onSession: "tok_chargeDeclined", offSession: "tok_chargeDeclined", last4: "0002" },
  pm_card_chargeDeclinedInsufficientFunds: { onSession: "tok_chargeDeclinedInsufficientFunds", offSession: "tok_chargeDeclinedInsufficientFunds", last4: "9995" },
  // Stripe's 4000000000000341: attaches, and every charge of it fails; our test provider's
  // "succeeds at checkout, fails on renewal" is this card paid on Stripe's hosted page first.
  pm_card_chargeCustomerFail: { onSession: "tok_visa", offSession: "tok_chargeCustomerFail", last4: "0341" },
  // 4000002500003155: needs 3D Secure on-session; off-session Stripe answers authentication_required.
  pm_card_authenticationRequired: { onSession: "tok_visa", offSession: "tok_visa", authentication: true, last4: "3155" },
};

interface Account {
  paymentMethods: Map<string, Json & { id: string; customer: string | null; token: string }>;
  paymentIntents: Map<string, Json & { id: string }>;
  sessions: Map<string, Json & { id: string }>;
  setupIntents: Map<string, Json & { id: string }>;
  customers: Set<string>;
  charges: Map<string, string>;
  refunds: Map<string, Json & { id: string }>;
}

export interface StripeEmulator {
  /** For useStripeApi(). */
  address: { host: string; port: number; protocol: "http" };
  /** Every request received, as "METHOD /path", oldest first. */
  requests(): string[];
  /** PaymentIntents of an account (its secret key), oldest first. */
  paymentIntents(secretKey: string): Json[];
  /** The next `count` requests to this path prefix are applied, then answered with a dropped connection (a time-out after the charge). */
  dropResponsesAfterApplying(pathPrefix: string, count: number): void;
  /** The next `count` requests to this path prefix are answered 500 without being applied. */
  failWithServerError(pathPrefix: string, count: number): void;
  /** The member pays a Checkout Session on "Stripe's hosted page" with a test card token. */
  payCheckout(secretKey: string, sessionId: string, card: keyof typeof CARD_TOKENS): Promise<void>;
  /** A Checkout Session's time ran out. */
  expireCheckout(secretKey: string, sessionId: string): void;
  /** A Stripe Event object about an object (as Stripe would send it). */
  event(type: string, object: Json, options?: { id?: string; created?: number }): Json;
  close(): Promise<void>;
}

/** Parses Stripe's form encoding (a[b][0]=c) into nested objects and arrays. */
export function parseForm(text: string): Json {
  const out: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return arrays(out) as Json;
}

function arrays(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value as Json);
  if (entries.length && entries.every(([k]) => /^\d+$/.test(k))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => arrays(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, arrays(v)]));
}

const error = (status: number, body: Json): Answer => ({ status, body: { error: body } });
const missing = (kind: string, value: string, param = "id"): Answer =>
  error(404, { type: "invalid_request_error", code: "resource_missing", param, message: `No such ${kind}: '${value}'` });

export async function startStripeEmulator(): Promise<StripeEmulator> {
  const mock = http.createServer(stripeStatefulMock.createExpressApp());
  await new Promise<void>((resolve) => mock.listen(0, "127.0.0.1", resolve));
  const mockUrl = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;

  /** A call to stripe-stateful-mock's API (its own account; ownership is kept here). */
  async function backend(method: "GET" | "POST", path: string, params: Record<string, string> = {}): Promise<Answer> {
    const body = new URLSearchParams(params).toString();
    const r = await fetch(method === "GET" && body ? `${mockUrl}${path}?${body}` : `${mockUrl}${path}`, {
      method,
      headers: { authorization: "Bearer sk_test_emulator_backend", "content-type": "application/x-www-form-urlencoded" },
      body: method === "POST" ? body : undefined,
    });
    return { status: r.status, body: (await r.json()) as Json };
  }

  const accounts = new Map<string, Account>();
  const accountOf = (key: string): Account => {
    let a = accounts.get(key);
    if (!a) {
      a = { paymentMethods: new Map(), paymentIntents: new Map(), sessions: new Map(), setupIntents: new Map(), customers: new Set(), charges: new Map(), refunds: new Map() };
      accounts.set(key, a);
    }
    return a;
  };
  const idempotency = new Map<string, { params: string; answer: Answer }>();
  const drops: { prefix: string; count: number }[] = [];
  const failures: { prefix: string; count: number }[] = [];
  const take = (list: { prefix: string; count: number }[], path: string) => {
    const f = list.find((x) => x.count > 0 && path.startsWith(x.prefix));
    if (f) f.count -= 1;
    return !!f;
  };

  function paymentMethodJson(pm: Json & { token: string }): Json {
    const { token: _token, ...rest } = pm;
    return rest;
  }

  /** Creates and confirms a PaymentIntent on a mock charge of the method's test token. */
  async function confirmIntent(account: Account, params: Json): Promise<Answer> {
    const pm = account.paymentMethods.get(String(params.payment_method ?? ""));
    if (!pm) return missing("PaymentMethod", String(params.payment_method ?? ""), "payment_method");
    const card = CARD_TOKENS[pm.token]!;
    const offSession = params.off_session === "true";
    const amount = Number(params.amount);
    const pi: Json & { id: string } = {
      id: id("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: params.currency,
      customer: params.customer ?? pm.customer,
      payment_method: pm.id,
      metadata: (params.metadata as Json) ?? {},
      description: params.description ?? null,
      setup_future_usage: params.setup_future_usage ?? null,
      created: nowSeconds(),
      livemode: false,
      latest_charge: null,
      last_payment_error: null,
      status: "requires_confirmation",
    };
    account.paymentIntents.set(pi.id, pi);
    if (card.authentication && !offSession) {
      pi.status = "requires_action";
      pi.next_action = { type: "use_stripe_sdk" };
      return { status: 200, body: pi };
    }
    if (card.authentication && offSession) {
      const err = { type: "card_error", code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." };
      Object.assign(pi, { status: "requires_payment_method", last_payment_error: err });
      return error(402, { ...err, payment_intent: pi });
    }
    const charged = await backend("POST", "/v1/charges", { amount: String(amount), currency: String(params.currency), source: offSession ? card.offSession : card.onSession });
    if (charged.status === 200) {
      account.charges.set(String(charged.body.id), pi.id);
      Object.assign(pi, { status: "succeeded", amount_received: amount, latest_charge: charged.body.id });
      return { status: 200, body: pi };
    }
    const e = charged.body.error as Json;
    if (typeof e.charge === "string") account.charges.set(e.charge, pi.id);
    const lastError = { type: e.type, code: e.code, decline_code: e.decline_code, message: e.message, charge: e.charge };
    Object.assign(pi, { status: "requires_payment_method", latest_charge: e.charge ?? null, last_payment_error: lastError });
    return { status: charged.status, body: { error: { ...lastError, payment_intent: pi } } };
  }

  function expandSession(account: Account, session: Json, expand: unknown): Json {
    const list = Array.isArray(expand) ? expand.map(String) : [];
    return {
      ...session,
      payment_intent: list.includes("payment_intent") && session.payment_intent ? account.paymentIntents.get(String(session.payment_intent)) : session.payment_intent,
      setup_intent: list.includes("setup_intent") && session.setup_intent ? account.setupIntents.get(String(session.setup_intent)) : session.setup_intent,
    };
  }

  async function route(account: Account, method: string, path: string, params: Json): Promise<Answer> {
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/customers") {
      const r = await backend("POST", "/v1/customers", typeof params.email === "string" ? { email: params.email } : {});
      if (r.status === 200) account.customers.add(String(r.body.id));
      return r;
    }
    if (method === "POST" && (m = path.match(/^\/v1\/payment_methods\/([^/]+)\/attach$/))) {
      const customer = String(params.customer ?? "");
      if (!account.customers.has(customer)) return missing("customer", customer, "customer");
      const token = m[1]!;
      if (CARD_TOKENS[token]) {
        const pm = { id: id("pm"), object: "payment_method", type: "card", customer, card: { brand: "visa", last4: CARD_TOKENS[token].last4 }, token };
        account.paymentMethods.set(pm.id, pm);
        return { status: 200, body: paymentMethodJson(pm) };
      }
      const pm = account.paymentMethods.get(token);
      if (!pm) return missing("PaymentMethod", token);
      if (pm.customer && pm.customer !== customer) return error(400, { type: "invalid_request_error", code: "payment_method_unexpected_state", message: "This PaymentMethod was previously attached to another Customer." });
      pm.customer = customer;
      return { status: 200, body: paymentMethodJson(pm) };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/payment_methods\/([^/]+)$/))) {
      const pm = account.paymentMethods.get(m[1]!);
      return pm ? { status: 200, body: paymentMethodJson(pm) } : missing("PaymentMethod", m[1]!);
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      if (params.confirm !== "true") return error(400, { type: "invalid_request_error", message: "This emulator only creates PaymentIntents confirmed at once (confirm=true)." });
      return confirmIntent(account, params);
    }
    if (method === "GET" && path === "/v1/payment_intents/search") {
      const q = String(params.query ?? "").match(/^metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'$/);
      if (!q) return error(400, { type: "invalid_request_error", message: "This emulator searches PaymentIntents by one metadata field only." });
      const data = [...account.paymentIntents.values()].filter((pi) => (pi.metadata as Json)[q[1]!] === q[2]!.replace(/\\'/g, "'")).reverse();
      return { status: 200, body: { object: "search_result", data, has_more: false, next_page: null, url: "/v1/payment_intents/search" } };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) {
      const pi = account.paymentIntents.get(m[1]!);
      return pi ? { status: 200, body: pi } : missing("payment_intent", m[1]!);
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = account.paymentIntents.get(String(params.payment_intent ?? ""));
      if (!pi) return missing("payment_intent", String(params.payment_intent ?? ""), "payment_intent");
      if (pi.status !== "succeeded") return error(400, { type: "invalid_request_error", code: "charge_not_refundable", message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.` });
      const r = await backend("POST", "/v1/refunds", { charge: String(pi.latest_charge), ...(params.amount ? { amount: String(params.amount) } : {}) });
      if (r.status !== 200) return r;
      const refund = { ...r.body, id: String(r.body.id), payment_intent: pi.id, metadata: params.metadata ?? {} };
      account.refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = [...account.refunds.values()].filter((r) => !params.payment_intent || r.payment_intent === params.payment_intent);
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/refunds" } };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/charges\/([^/]+)$/))) {
      const pi = account.charges.get(m[1]!);
      if (!pi) return missing("charge", m[1]!);
      const r = await backend("GET", `/v1/charges/${m[1]!}`);
      return r.status === 200 ? { status: 200, body: { ...r.body, payment_intent: pi } } : r;
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const mode = String(params.mode);
      const items = (params.line_items as Json[] | undefined) ?? [];
      const price = (items[0]?.price_data as Json | undefined) ?? {};
      const session = {
        id: id("cs_test"),
        object: "checkout.session",
        mode,
        status: "open",
        payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        customer_email: params.customer_email ?? null,
        metadata: params.metadata ?? {},
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        currency: price.currency ?? params.currency ?? null,
        amount_total: mode === "setup" ? null : Number(price.unit_amount ?? 0) * Number(items[0]?.quantity ?? 1),
        payment_intent_data: params.payment_intent_data ?? null,
        payment_intent: null,
        setup_intent: null,
        livemode: false,
        created: nowSeconds(),
      };
      const withUrl = { ...session, url: `${address.protocol}://${address.host}:${address.port}/pay/${session.id}` };
      account.sessions.set(session.id, withUrl);
      const { payment_intent_data: _d, ...shown } = withUrl;
      return { status: 200, body: shown };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const s = account.sessions.get(m[1]!);
      if (!s) return missing("checkout.session", m[1]!);
      const { payment_intent_data: _d, ...shown } = expandSession(account, s, params.expand);
      return { status: 200, body: shown };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/events\/([^/]+)$/))) return missing("event", m[1]!);
    return error(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}) in the emulator.` });
  }

  const received: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://emulator");
        const text = Buffer.concat(chunks).toString("utf8");
        const method = req.method ?? "GET";
        received.push(`${method} ${url.pathname}`);
        const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const send = (a: Answer) => {
          res.writeHead(a.status, { "content-type": "application/json", "request-id": id("req") });
          res.end(JSON.stringify(a.body));
        };
        if (!/^(sk|rk)_test_/.test(key)) return send(error(401, { type: "invalid_request_error", message: "Invalid API Key provided" }));
        if (take(failures, url.pathname)) return send(error(500, { type: "api_error", message: "An unknown error occurred" }));
        const params = method === "GET" ? parseForm(url.searchParams.toString()) : parseForm(text);
        const idem = method === "POST" ? req.headers["idempotency-key"] : undefined;
        const idemKey = typeof idem === "string" ? `${key}\u0000${idem}` : null;
        let answer: Answer;
        const first = idemKey ? idempotency.get(idemKey) : undefined;
        if (first && first.params !== `${url.pathname}?${text}`) {
          answer = error(400, { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(idem)}' if you meant to execute a different request.` });
        } else if (first) {
          answer = first.answer;
        } else {
          answer = await route(accountOf(key), method, url.pathname, params);
          if (idemKey && answer.status !== 500) idempotency.set(idemKey, { params: `${url.pathname}?${text}`, answer });
        }
        if (take(drops, url.pathname)) {
          req.socket.destroy();
          return;
        }
        send(answer);
      })().catch((err: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "api_error", message: String(err) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = { host: "127.0.0.1", port: (server.address() as AddressInfo).port, protocol: "http" as const };

  return {
    address,
    requests: () => [...received],
    paymentIntents: (secretKey) => [...accountOf(secretKey).paymentIntents.values()],
    dropResponsesAfterApplying: (prefix, count) => drops.push({ prefix, count }),
    failWithServerError: (prefix, count) => failures.push({ prefix, count }),
    async payCheckout(secretKey, sessionId, card) {
      const account = accountOf(secretKey);
      const session = account.sessions.get(sessionId);
      if (!session || session.status !== "open") throw new Error(`emulator: checkout ${sessionId} is not open`);
      const attached = await route(account, "POST", `/v1/payment_methods/${card}/attach`, { customer: session.customer });
      if (attached.status !== 200) throw new Error(`emulator: ${JSON.stringify(attached.body)}`);
      const pmId = String(attached.body.id);
      if (session.mode === "setup") {
        const seti = { id: id("seti"), object: "setup_intent", status: "succeeded", payment_method: pmId, customer: session.customer, usage: "off_session" };
        account.setupIntents.set(seti.id, seti);
        Object.assign(session, { status: "complete", setup_intent: seti.id });
        return;
      }
      const data = (session.payment_intent_data as Json | null) ?? {};
      const paid = await confirmIntent(account, {
        amount: String(session.amount_total),
        currency: session.currency,
        payment_method: pmId,
        customer: session.customer,
        setup_future_usage: data.setup_future_usage,
        metadata: data.metadata ?? {},
      });
      // A declined card stays on Stripe's page (the session stays open), as on Stripe.
      if (paid.status !== 200) return;
      Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: paid.body.id });
    },
    expireCheckout(secretKey, sessionId) {
      const session = accountOf(secretKey).sessions.get(sessionId);
      if (session) Object.assign(session, { status: "expired", url: null });
    },
    event: (type, object, options = {}) => ({
      id: options.id ?? id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: options.created ?? nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => mock.close(() => resolve()));
    },
  };
}
