/**
 * A column's heading: its words, or an object for the two variations the tables need: words only
 * screen readers hear (a column of buttons needs no visible title), and numbers set right.
 */
export type ColumnHeading = string | { label: string; hidden?: boolean; numeric?: boolean }

/** The header cells of a table, one per column. */
export function ColumnHeadings(props: { headings: readonly ColumnHeading[] }) {
  return (
    <>
      {props.headings.map((heading) => {
        const { label, hidden, numeric } =
          typeof heading === 'string' ? { label: heading, hidden: false, numeric: false } : heading
        return (
          <th key={label} scope="col" className={numeric ? 'num' : undefined}>
            {hidden ? <span className="visually-hidden">{label}</span> : label}
          </th>
        )
      })}
    </>
  )
}
