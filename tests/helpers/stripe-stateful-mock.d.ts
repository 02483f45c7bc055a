// stripe-stateful-mock ships no types; the one function the Stripe emulator uses.
declare module "stripe-stateful-mock" {
  import type { RequestListener } from "node:http";
  const mock: { createExpressApp(): RequestListener };
  export default mock;
}
