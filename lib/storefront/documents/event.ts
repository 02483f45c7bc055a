// An event's document.
import { type Fact, type StorefrontDocument } from "../document";
import { displayDateTime, displayPrice, isoInZone, moneyString, safeTimeZone } from "../format";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { safeAbsoluteUrl, safeHref } from "../safe-url";
import { type BuildContext, urls, fact, text, categoryOf, priceFields, organization, offer } from "./shared";

export function eventDocument(ctx: BuildContext, e: q.EventRow): StorefrontDocument {
  const u = urls(ctx, "event", e.slug);
  const zone = safeTimeZone(e.timezone);
  const start = isoInZone(e.startsAt, zone);
  const end = isoInZone(e.endsAt, zone);
  const category = categoryOf(ctx, e.category);
  const price = e.price !== null && e.currency ? moneyString(e.price) : null;
  // An online URL that is not an absolute http(s) URL is left out everywhere, as if none was set.
  const onlineUrl = safeHref(e.onlineUrl, { absolute: true });
  const image = safeAbsoluteUrl(e.imageUrl, ctx.origin);
  const mode = e.location && onlineUrl ? "mixed" : e.location ? "offline" : "online";

  const facts: Fact[] = [
    fact("start", "Starts", { text: displayDateTime(e.startsAt, zone), datetime: start }),
    fact("end", "Ends", { text: displayDateTime(e.endsAt, zone), datetime: end }),
    fact("timezone", "Time zone", text(zone)),
  ];
  if (e.location) facts.push(fact("location", "Location", text(e.location)));
  if (onlineUrl) facts.push(fact("online_url", "Online", { text: onlineUrl, url: onlineUrl, markdownUrl: onlineUrl }));
  if (price && e.currency) facts.push(fact("price", "Price", text(displayPrice(price, e.currency))));
  if (category) facts.push(fact("category", "Category", category.value));

  const location: Record<string, unknown>[] = [];
  if (e.location) location.push({ "@type": "Place", name: e.location, address: e.location });
  if (onlineUrl) location.push({ "@type": "VirtualLocation", url: onlineUrl });
  const attendance = { online: "OnlineEventAttendanceMode", offline: "OfflineEventAttendanceMode", mixed: "MixedEventAttendanceMode" }[mode];

  return {
    kind: "event",
    slug: e.slug,
    title: e.title,
    description: e.summary,
    ...u,
    image,
    updated: e.updatedAt,
    fields: {
      start,
      end,
      timezone: zone,
      attendance_mode: mode,
      location: e.location,
      online_url: onlineUrl,
      image_url: image,
      ...(price && e.currency ? priceFields(price, e.currency) : {}),
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(e.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Event",
      name: e.title,
      description: e.summary,
      url: u.url,
      ...(image ? { image } : {}),
      startDate: start,
      endDate: end,
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: `https://schema.org/${attendance}`,
      // Google requires a location: an event with neither a place nor a link is attended through its page.
      location: location.length === 0 ? { "@type": "VirtualLocation", url: u.url } : location.length === 1 ? location[0] : location,
      organizer: organization(ctx),
      // Without a price the event is free to attend.
      offers:
        price && e.currency
          ? offer(u.url, price, e.currency)
          : { "@type": "Offer", price: "0", url: u.url, availability: "https://schema.org/InStock" },
    },
  };
}
