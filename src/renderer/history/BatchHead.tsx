import { useEffect } from 'react'
import { VirtualRow, type RowPlace } from '../components/VirtualTable'
import { batchSummaryKey } from '../stores/history-store'
import { useFields, useStores } from '../stores/context'
import type { BatchHeadRow } from './batch-groups'
import { plural } from '../../shared/format/amounts'

/** The head of a batch's runs in History: its sheet, the batch's summary, and its page. */
export function BatchHead(props: { head: BatchHeadRow; place: RowPlace }) {
  const { history, nav, environments } = useStores()
  const { head } = props
  const { batchSummaries } = useFields('history', 'batchSummaries')
  const summary = batchSummaries[batchSummaryKey(head.environment, head.batchId)] ?? ''
  useEffect(() => {
    void history.getState().askBatchSummary(head.environment, head.runId, head.batchId)
  }, [history, head.environment, head.runId, head.batchId])
  const open = () => {
    if (environments.getState().selected !== head.environment)
      environments.getState().select(head.environment)
    nav.getState().openBatch(head.runId)
  }
  return (
    <VirtualRow place={props.place} data-batch-head={head.batchId}>
      <td className="history-batch-head" colSpan={5}>
        <span className="run-name" title={head.fileName || undefined}>
          {head.fileName || 'Rows without a file'}
        </span>
        <span className="run-sub" title={summary || undefined}>
          {summary || `${plural(head.runs, 'run')} of one sheet`}
        </span>
        <button type="button" className="link-button" onClick={open}>
          Open the sheet
        </button>
      </td>
    </VirtualRow>
  )
}
