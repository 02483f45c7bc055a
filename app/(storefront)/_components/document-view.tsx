import Link from "next/link";
import type { FactValue, StorefrontDocument } from "@/lib/storefront/document";
import { renderMarkdown } from "@/lib/storefront/markdown-html";
import { NO_TAX_NOTE } from "@/lib/billing/checkout-html";
import { Picture } from "./picture";

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** JSON inside <script>: "<" escaped so content cannot close the tag. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

function Value({ value }: { value: FactValue }) {
  const inner = value.datetime ? <time dateTime={value.datetime}>{value.text}</time> : value.text;
  if (!value.url) return <>{inner}</>;
  const internal = value.markdownUrl !== value.url;
  return internal ? <Link href={pathOf(value.url)}>{inner}</Link> : <a href={value.url} rel="nofollow noopener">{inner}</a>;
}

/**
 * An item's way in: the checkout's review page (lib/billing/checkout-requests.ts), which says who
 * buys and at what price, and takes a free item at once for a signed-in member. The page itself is
 * cached for everyone, so the link is the same for all; the review page knows who is signed in.
 */
function CallToAction({ doc }: { doc: StorefrontDocument }) {
  const free = Number(doc.fields.price ?? 0) === 0;
  let href: string;
  let label: string;
  if (doc.kind === "plan") {
    href = `/checkout/plans/${doc.slug}`;
    label = free ? "Join for free" : doc.fields.plan_type === "recurring" ? `Join ${doc.title}` : `Buy ${doc.title}`;
  } else if (doc.kind === "course") {
    // A course without a price of its own comes with a membership plan (docs/content.md).
    if (doc.fields.price === undefined || doc.fields.price === null) {
      return (
        <div className="cta">
          <Link className="button" href="/plans">
            See the membership plans
          </Link>
          <p className="meta">This course comes with a membership plan.</p>
        </div>
      );
    }
    href = `/checkout/courses/${doc.slug}`;
    label = free ? "Enroll for free" : `Buy ${doc.title}`;
  } else if (doc.kind === "digital_download") {
    href = `/checkout/digital-downloads/${doc.slug}`;
    label = free ? "Get it for free" : `Buy ${doc.title}`;
  } else {
    return null;
  }
  return (
    <div className="cta">
      <a className="button" href={href}>
        {label}
      </a>
      <p className="meta">{doc.kind !== "plan" && !free ? "A one-time payment, no subscription. " : ""}
        {NO_TAX_NOTE}
      </p>
    </div>
  );
}

/** The HTML rendering of a storefront document (the markdown twin renders the same document). */
export async function DocumentView({ doc }: { doc: StorefrontDocument }) {
  return (
    <main className="wrap">
      <article className={`document document-${doc.kind.replace(/_/g, "-")}`}>
        {doc.kind === "lecturer" ? (
          // A lecturer's photo, or their initials: a profile never shows an empty frame or a broken image.
          <Picture src={doc.image} alt={`Photo of ${doc.title}`} name={doc.title} width={128} height={128} className="portrait" priority />
        ) : null}
        <h1>{doc.title}</h1>
        {doc.description.trim() ? <p className="lead">{doc.description}</p> : null}
        {doc.image && doc.kind !== "lecturer" ? (
          <Picture
            src={doc.image}
           
            alt={`Cover of ${doc.title}`}
            name={doc.title}
            width={640}
            height={360}
            sizes="(max-width: 960px) 100vw, 920px"
            className="document-image"
            priority
          />
        ) : null}
        {doc.facts.length ? (
          <dl className="facts">
            {doc.facts.map((f) => (
              <div key={f.key} data-fact={f.key} className={f.key === "price" ? "price" : undefined}>
                <dt>{f.label}</dt>
                <dd>
                  {f.values.map((v, i) => (
                    <span key={i}>
                      {i > 0 ? ", " : null}
                      <Value value={v} />
                    </span>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
        <CallToAction doc={doc} />
        {doc.body.trim() ? (
          <div className="prose">
            {await renderMarkdown(doc.body)}
          </div>
        ) : null}
        {doc.sections.map((s) => (
          <section key={s.key} data-section={s.key}>
            <h2>{s.heading}</h2>
            <ul className="cards">
              {s.items.map((item) => (
                <li key={item.url} className="card">
                  <h3>
                    <Link href={pathOf(item.url)}>{item.title}</Link>
                  </h3>
                  {item.meta ? <p className="meta">{item.meta}</p> : null}
                  {item.summary ? <p>{item.summary}</p> : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <p className="meta alternate">
          Also available as <a href={doc.markdownUrl} type="text/markdown">markdown</a>.
        </p>
      </article>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(doc.jsonLd) }} />
    </main>
  );
}
