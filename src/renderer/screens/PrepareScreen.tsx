import { useEffect } from 'react'
import type { EnvironmentView } from '../../shared/bridge'
import { ConnectionCheck } from '../components/ConnectionCheck'
import { useStores } from '../stores/context'
import { SchemaForm } from '../prepare/SchemaForm'
import { TargetPicker } from '../prepare/TargetPicker'
import { WorkbookPanel } from '../prepare/WorkbookPanel'
import { SendPanel } from '../prepare/SendPanel'

/**
 * "New run": choose what to run, see its form and get its workbook, drop the filled workbook and
 * fix it until it is clean, then review the cost and send. Each step works offline except the
 * sending, which says so.
 */
export function PrepareScreen(props: { env: EnvironmentView }) {
  const { prepare } = useStores()
  useEffect(() => {
    void prepare.getState().open(props.env.name)
  }, [prepare, props.env.name])

  return (
    <div className="prepare">
      <div className="prepare-top">
        <TargetPicker key={props.env.name} />
        <ConnectionCheck env={props.env} />
      </div>
      <SchemaForm />
      <WorkbookPanel />
      <SendPanel env={props.env} />
    </div>
  )
}
