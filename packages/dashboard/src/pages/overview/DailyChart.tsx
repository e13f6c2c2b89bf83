/** A per-day bar chart (recharts, bundled by Vite) with the same numbers as a table for screen readers. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface Series {
  key: string;
  label: string;
  color: string;
}

export function DailyChart({ title, data, series, testId, unit = '' }: { title: string; data: Record<string, string | number | null>[]; series: Series[]; testId: string; unit?: string }) {
  return (
    <figure className="card chart" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <div aria-hidden="true" style={{ width: '100%', height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={(value: string) => value.slice(5)} fontSize={12} />
            {/* A share is drawn on its whole scale: 0 to 100 %, whatever the days' values. */}
            <YAxis allowDecimals={false} fontSize={12} unit={unit} {...(unit === '%' ? { domain: [0, 100], ticks: [0, 25, 50, 75, 100] } : {})} />
            <Tooltip />
            <Legend />
            {series.map((item) => (
              <Bar key={item.key} dataKey={item.key} name={item.label} fill={item.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* Hidden through a wrapper: a table is never narrower than its content, so on the table itself the 1 px box would
          not hold it and it would make a narrow page scroll sideways. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((item) => (
                <th scope="col" key={item.key}>
                  {item.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={String(row.date)}>
                <th scope="row">{row.date}</th>
                {series.map((item) => (
                  <td key={item.key}>{row[item.key] === null ? '—' : `${row[item.key]}${unit}`}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
