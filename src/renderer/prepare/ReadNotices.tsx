import type { WorkbookCheckView } from '../../shared/bridge'
import { useStores } from '../stores/context'

/**
 * What the reader says that is no problem (the sheet it read, hidden or total rows read past,
 * empty rows skipped), and, when sheets fit the template equally well, a choice of sheet: the
 * workbook is then checked again from the one chosen.
 */
export function ReadNotices(props: { shown: WorkbookCheckView }) {
  const { prepare } = useStores()
  const { notices = [], sheetChoices } = props.shown
  if (notices.length === 0 && !sheetChoices) return null
  return (
    <div className="read-notices">
      {sheetChoices && (
        <div className="field sheet-choice">
          <label htmlFor="sheet-choice">Which sheet holds the rows to send?</label>
          <select
            id="sheet-choice"
            defaultValue=""
            onChange={(event) => void prepare.getState().chooseSheet(event.target.value)}
          >
            <option value="" disabled>
              Choose a sheet…
            </option>
            {sheetChoices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      )}
      {notices.length > 0 && (
        <ul aria-label="About how the workbook was read">
          {notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
