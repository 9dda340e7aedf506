import type { CheckedProblem } from '../../shared/bridge'

/**
 * Every problem of the checked workbook: file-wide ones first, then one button per cell problem
 * that shows the cell in the grid. Fixes happen in the workbook; "Check again" reads it anew.
 */
export function ErrorList(props: {
  fileErrors: string[]
  problems: CheckedProblem[]
  onJump: (problem: CheckedProblem) => void
}) {
  const { fileErrors, problems } = props
  if (fileErrors.length === 0 && problems.length === 0) return null
  return (
    <div className="error-list" aria-labelledby="error-list-title">
      <h3 id="error-list-title" className="prep-subtitle">
        To fix in the workbook
      </h3>
      <ul>
        {fileErrors.map((message, i) => (
          <li key={`f${i}`} className="error-item error-file">
            {message}
          </li>
        ))}
        {problems.map((p, i) => (
          <li key={`p${i}`} className="error-item">
            {p.rowPosition !== null ? (
              <button type="button" className="error-jump" onClick={() => props.onJump(p)}>
                <span className="error-where">
                  {p.column !== null ? cellName(p.column, p.rowNumber) : `Row ${p.rowNumber}`}
                </span>
                <span>
                  {p.message}
                  <span className="visually-hidden"> (show the cell)</span>
                </span>
              </button>
            ) : (
              <span>{p.message}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}

function cellName(column: number, row: number): string {
  let n = column
  let letters = ''
  while (n > 0) {
    const r = (n - 1) % 26
    letters = String.fromCharCode(65 + r) + letters
    n = Math.floor((n - 1) / 26)
  }
  return `${letters}${row}`
}
