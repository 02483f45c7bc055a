import { now } from "@/lib/clock";
import { schoolOverview, type MonthPoint } from "@/lib/console/overview";
import { ConsoleSection } from "./lists";

const monthLabel = (d: Date) => new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "short", year: "2-digit" }).format(d);
const money = (amount: number, currency: string) => new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(amount);

/**
 * A small bar chart of 12 months, drawn on the server as SVG: the SVG has a title and description
 * for assistive technology, and the same numbers follow in a table (visually hidden) for reading.
 */
function MonthChart(props: { id: string; title: string; points: MonthPoint[]; format: (n: number) => string }) {
  const { points } = props;
  const width = 360;
  const height = 120;
  const barGap = 4;
  const barWidth = (width - barGap * (points.length - 1)) / points.length;
  const max = Math.max(1, ...points.map((p) => p.value));
  const last = points[points.length - 1];
  const summary = `${props.title}, ${monthLabel(points[0]!.month)} to ${monthLabel(last!.month)}: highest ${props.format(max === 1 && points.every((p) => p.value === 0) ? 0 : max)}, this month ${props.format(last!.value)}.`;
  return (
    <figure className="card">
      <figcaption>
        <h3 id={`${props.id}-title`}>{props.title}</h3>
      </figcaption>
      <svg className="console-chart" viewBox={`0 0 ${width} ${height + 18}`} role="img" aria-labelledby={`${props.id}-svg-title ${props.id}-svg-desc`}>
        <title id={`${props.id}-svg-title`}>{props.title}</title>
        <desc id={`${props.id}-svg-desc`}>{summary}</desc>
        {points.map((p, i) => {
          const h = Math.round((p.value / max) * height);
          return <rect key={p.month.toISOString()} x={i * (barWidth + barGap)} y={height - h} width={barWidth} height={Math.max(h, p.value > 0 ? 1 : 0)} rx={2} fill="var(--accent)" />;
        })}
        <line x1={0} x2={width} y1={height + 0.5} y2={height + 0.5} stroke="#5d6170" strokeWidth={1} />
        <text x={0} y={height + 14} fontSize={11} fill="#5d6170">
          {monthLabel(points[0]!.month)}
        </text>
        <text x={width} y={height + 14} fontSize={11} fill="#5d6170" textAnchor="end">
          {monthLabel(last!.month)}
        </text>
      </svg>
      {/* Hidden by a wrapper: a table keeps its content's width whatever its own width says, so the
          class on the table itself let it stick out of a phone's screen. */}
      <div className="visually-hidden">
        <table>
          <caption>{props.title} by month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">{props.title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.month.toISOString()}>
                <th scope="row">{monthLabel(p.month)}</th>
                <td>{props.format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The overview's figures and charts (lib/console/overview.ts defines each). */
export async function OverviewPanels({ schoolId }: { schoolId: string }) {
  const o = await schoolOverview({ schoolId, now: now() });
  const count = (n: number) => n.toLocaleString("en-GB");
  const mrrCurrency = o.series.mrrCurrency;
  return (
    <>
      <ConsoleSection id="figures-heading" title="This month">
        <ul className="cards">
          <li className="card">
            <h3>Active members</h3>
            <p className="console-figure">{count(o.activeMembers)}</p>
            <p className="meta">With a paying or trial subscription, not paused.</p>
          </li>
          <li className="card">
            <h3>New members</h3>
            <p className="console-figure">{count(o.newThisMonth)}</p>
          </li>
          <li className="card">
            <h3>Churned members</h3>
            <p className="console-figure">{count(o.churnedThisMonth)}</p>
            <p className="meta">Whose subscription ended and who hold no other.</p>
          </li>
          <li className="card">
            <h3>Monthly recurring revenue</h3>
            {o.mrr.length === 0 ? <p className="console-figure">0</p> : null}
            {o.mrr.map((m) => (
              <p key={m.currency} className="console-figure">
                {money(m.amount, m.currency)}
              </p>
            ))}
            <p className="meta">Live recurring subscriptions, each plan&apos;s price per month.</p>
          </li>
          <li className="card">
            <h3>Failed payments</h3>
            <p className="console-figure">{count(o.failedPaymentsThisMonth)}</p>
          </li>
        </ul>
      </ConsoleSection>
      <ConsoleSection id="charts-heading" title="The last 12 months">
        <div className="cards">
          <MonthChart id="chart-new" title="New members" points={o.series.newMembers} format={count} />
          <MonthChart id="chart-churned" title="Churned members" points={o.series.churned} format={count} />
          {mrrCurrency ? <MonthChart id="chart-mrr" title={`Monthly recurring revenue (${mrrCurrency})`} points={o.series.mrr} format={(n) => money(n, mrrCurrency)} /> : null}
          <MonthChart id="chart-failed" title="Failed payments" points={o.series.failedPayments} format={count} />
        </div>
      </ConsoleSection>
    </>
  );
}
