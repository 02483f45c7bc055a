// SQL fragments for reads that return the wire shapes (presenter.ts) straight from the database,
// for the Admin API's hot list paths where Prisma's result mapping and a Date per column were most of
// the server thread's work (docs/benchmarks.md, "Fairness under abuse"). Each fragment computes
// exactly what the presenter computes from a Prisma record:
// tests/integration/admin-api/subscription-page-statements.test.ts compares the two column by column.

/** toUnixSeconds (lib/clock.ts): whole seconds, floored; null stays null. float8 so pg hands back a number. */
export const unixSeconds = (column: string) => `floor(extract(epoch from ${column}))::float8`;

/** money() (presenter.ts): a Decimal(12, 2) as Decimal#toFixed(2), which is numeric(12, 2)'s own text. */
export const moneyText = (column: string) => `${column}::text`;
