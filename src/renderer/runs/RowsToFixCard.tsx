import { useState } from 'react'
import type { BridgeErrorInfo, RunOverview } from '../../shared/bridge'
import { plural } from '../../shared/format/amounts'
import { Card } from '../components/CardParts'
import { ErrorNotice } from '../components/ErrorNotice'
import { useStores } from '../stores/context'

/**
 * The rows set aside to fix when this run was sent (the valid ones went, these did not): the
 * same workbook History opens, a click away from the run itself.
 */
export function RowsToFixCard(props: { overview: RunOverview }) {
  const { prepare } = useStores()
  const [error, setError] = useState<BridgeErrorInfo | null>(null)
  const { setAsideRows, environment } = props.overview
  if (!setAsideRows) return null
  const runId = props.overview.detail.run.runId
  const open = async () => setError(await prepare.getState().openRowsToFix(environment, runId))
  return (
    <Card
      titleId="rows-to-fix-title"
      level={3}
      title="Rows set aside to fix"
      sub={`${plural(setAsideRows, 'row')} had problems when this run was sent and were not sent. Fix them in their workbook and drop it on New run to send them.`}
      testId="rows-to-fix"
      tools={
        <button type="button" className="btn btn-secondary" onClick={() => void open()}>
          Open the rows to fix
        </button>
      }
    >
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
    </Card>
  )
}
