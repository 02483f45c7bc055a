// A membership plan's document.
import { type Fact, type StorefrontDocument } from "../document";
import { displayDate, displayPrice, everyInterval, lengthOf, moneyString } from "../format";
import * as q from "../queries";
import { type BuildContext, urls, fact, text, iso, priceFields, organization, offer } from "./shared";

export function planTerms(p: Pick<q.PlanRow, "planType" | "interval" | "intervalCount" | "lengthCount" | "lengthInterval" | "fixedEndAt">): string {
  switch (p.planType) {
    case "recurring":
      return p.interval ? `Billed ${everyInterval(p.intervalCount, p.interval)}` : "Recurring";
    case "fixed_date":
      return p.fixedEndAt ? `Access until ${displayDate(p.fixedEndAt)}` : "Access until a set date";
    case "specific_length":
      return p.lengthCount && p.lengthInterval ? `Access for ${lengthOf(p.lengthCount, p.lengthInterval)}` : "Access for a set length";
    case "lifetime":
      return "One-time payment, lifetime access";
  }
}

export function planDocument(ctx: BuildContext, p: q.PlanRow): StorefrontDocument {
  const u = urls(ctx, "plan", p.slug);
  const price = moneyString(p.price);
  const terms = planTerms(p);
  const facts: Fact[] = [fact("price", "Price", text(displayPrice(price, p.currency))), fact("terms", "Terms", text(terms))];
  if (p.planType === "fixed_date" && p.fixedEndAt) {
    facts.push(fact("ends", "Ends", { text: displayDate(p.fixedEndAt), datetime: iso(p.fixedEndAt) }));
  }
  return {
    kind: "plan",
    slug: p.slug,
    title: p.name,
    description: p.description,
    ...u,
    updated: p.updatedAt,
    fields: {
      ...priceFields(price, p.currency),
      plan_type: p.planType,
      terms,
      ...(p.planType === "recurring" ? { interval: p.interval, interval_count: p.intervalCount } : {}),
      ...(p.planType === "specific_length" ? { length_count: p.lengthCount, length_interval: p.lengthInterval } : {}),
      ...(p.planType === "fixed_date" ? { ends: p.fixedEndAt ? iso(p.fixedEndAt) : null } : {}),
    },
    facts,
    body: "",
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Product",
      name: p.name,
      description: p.description,
      url: u.url,
      brand: organization(ctx),
      offers: {
        ...offer(u.url, price, p.currency),
        ...(p.planType === "recurring" && p.interval
          ? {
              priceSpecification: {
                "@type": "UnitPriceSpecification",
                price,
                priceCurrency: p.currency,
                billingDuration: p.intervalCount,
                unitText: p.interval.toUpperCase(),
              },
            }
          : {}),
      },
    },
  };
}
