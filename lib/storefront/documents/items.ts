// The link lists shared by the indexes, category, lecturer and home documents and llms.txt.
import { displayDate, displayDateTime, displayDuration, displayPrice, moneyString } from "../format";
import * as q from "../queries";
import { type BuildContext, link } from "./shared";
import { planTerms } from "./plan";

export function courseMeta(c: q.CourseRow): string {
  const parts: string[] = [];
  if (c.price !== null && c.currency) parts.push(displayPrice(moneyString(c.price), c.currency));
  if (c.level) parts.push(c.level);
  if (c.durationMinutes) parts.push(displayDuration(c.durationMinutes));
  return parts.join(" · ");
}

export const courseItems = (ctx: BuildContext, rows: q.CourseRow[]) =>
  rows.map((c) => link(ctx, "course", c.slug, c.title, c.summary, courseMeta(c) || undefined));
export const postItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listPosts>>) =>
  rows.map((p) => link(ctx, "post", p.slug, p.title, p.excerpt, p.publishedAt ? displayDate(p.publishedAt) : undefined));
export const eventItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listEvents>>) =>
  rows.map((e) => link(ctx, "event", e.slug, e.title, e.summary, displayDateTime(e.startsAt, e.timezone)));
export const downloadItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listDownloads>>) =>
  rows.map((d) => link(ctx, "digital_download", d.slug, d.title, d.summary, displayPrice(moneyString(d.price), d.currency)));
export const planItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listPlans>>) =>
  rows.map((p) => link(ctx, "plan", p.slug, p.name, p.description, `${displayPrice(moneyString(p.price), p.currency)} · ${planTerms(p)}`));
export const categoryItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listCategories>>) =>
  rows.map((c) => link(ctx, "category", c.slug, c.name, c.description));
export const lecturerItems = (ctx: BuildContext, rows: Awaited<ReturnType<typeof q.listLecturers>>) =>
  rows.map((l) => link(ctx, "lecturer", l.slug, l.name, l.headline));
