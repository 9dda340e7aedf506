import { inputWords } from './input-words'
import type { CompareOutput, CompareRow, CompareRowSide } from '../../shared/bridge'
import { formatAmount } from '../../shared/format/amounts'
import { formatBytes } from '../../shared/format/bytes'
import { StatusBadge } from '../components/StatusBadge'
import { kindLabel } from '../runs/run-view'

/** Rows drawn at once; the saved workbook has every row. */
const SHOWN_ROWS = 200

/** One output of a matched row: words, fields, or name and size, as its kind is. */
function OutputDiff(props: { output: CompareOutput }) {
  const { output } = props
  if (output.same)
    return (
      <div className="compare-output">
        <span className="compare-port">{output.portName}</span> <span className="muted">same</span>
      </div>
    )
  if (!output.a || !output.b)
    return (
      <div className="compare-output">
        <span className="compare-port">{output.portName}</span>{' '}
        <span className="muted">only in {output.a ? 'A' : 'B'}</span>
      </div>
    )
  return (
    <div className="compare-output">
      <span className="compare-port">{output.portName}</span>
      {output.kind === 'text' && (
        <p className="compare-words">
          {output.words.map((w, i) =>
            w.op === 'same' ? (
              <span key={i}>{w.text}</span>
            ) : w.op === 'removed' ? (
              <del key={i}>{w.text}</del>
            ) : (
              <ins key={i}>{w.text}</ins>
            ),
          )}
        </p>
      )}
      {output.kind === 'json' && (
        <ul className="compare-fields">
          {output.fields
            .filter((f) => f.state !== 'same')
            .map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <del>{f.a ?? '(none)'}</del> → <ins>{f.b ?? '(none)'}</ins>
              </li>
            ))}
        </ul>
      )}
      {output.kind === 'file' && (
        <p className="compare-file">
          A: {kindLabel(output.a.mimeType)}, {formatBytes(output.a.sizeBytes)}
          {output.a.preview ? ` “${output.a.preview.slice(0, 80)}”` : ''} · B:{' '}
          {kindLabel(output.b.mimeType)}, {formatBytes(output.b.sizeBytes)}
          {output.b.preview ? ` “${output.b.preview.slice(0, 80)}”` : ''}
        </p>
      )}
    </div>
  )
}

function cost(side: CompareRowSide | null, unit: string): string {
  if (!side || side.costT === null) return '—'
  return formatAmount(side.costT, unit)
}

function time(side: CompareRowSide | null): string {
  return side?.readyAfterSeconds == null ? '—' : `${side.readyAfterSeconds} s`
}

function rowName(row: CompareRow): string {
  if (row.a && row.b)
    return row.a.label === row.b.label ? row.a.label : `${row.a.label} · ${row.b.label}`
  return `${(row.a ?? row.b)!.label} (only in ${row.a ? 'A' : 'B'})`
}

/** The matched rows: status, outputs, cost and time of A beside B. */
export function ComparisonTable(props: {
  rows: CompareRow[]
  unitLabel: string
  inputNames: Record<string, string>
}) {
  const { rows, unitLabel } = props
  if (rows.length === 0) return <p className="card-sub">No rows match these filters.</p>
  return (
    <div className="comparison-scroll" tabIndex={0} aria-label="Compared rows, scrollable">
      <table className="comparison-table">
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">Outputs</th>
            <th scope="col">Cost A&nbsp;·&nbsp;B</th>
            <th scope="col">Ready after A&nbsp;·&nbsp;B</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, SHOWN_ROWS).map((row, i) => (
            <tr key={i} className={row.differs ? 'compare-differs' : undefined}>
              <th scope="row">
                {rowName(row)}
                {row.matchedBy === 'position' && <div className="muted">matched by position</div>}
                {row.matchedBy === 'alone' && row.inputs && (
                  <div className="muted compare-inputs">
                    {inputWords(row.inputs, props.inputNames)}
                  </div>
                )}
              </th>
              <td>{row.a ? <StatusBadge status={row.a.status} /> : '—'}</td>
              <td>{row.b ? <StatusBadge status={row.b.status} /> : '—'}</td>
              <td className="compare-outputs">
                {row.outputs.map((o) => (
                  <OutputDiff key={o.portName} output={o} />
                ))}
                {(row.a?.error || row.b?.error) && (
                  <div className="task-error">{row.a?.error || row.b?.error}</div>
                )}
              </td>
              <td className="num">
                {cost(row.a, unitLabel)} · {cost(row.b, unitLabel)}
              </td>
              <td className="num">
                {time(row.a)} · {time(row.b)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > SHOWN_ROWS && (
        <p className="card-sub">
          Showing {SHOWN_ROWS} of {rows.length} rows; the saved workbook has them all.
        </p>
      )}
    </div>
  )
}
