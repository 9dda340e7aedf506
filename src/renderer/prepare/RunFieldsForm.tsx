import type { FormEvent } from 'react'
import type { SchemaField } from '../../shared/contract'
import { Field } from '../components/Field'
import { usePrepare, useStores } from '../stores/context'
import { describeType } from '../stores/prepare/field-words'

/**
 * Fields that hold one value for the whole run, asked once here (they win over the workbook's
 * Run settings sheet). Applying them checks the workbook again with them.
 */
export function RunFieldsForm(props: { fields: { field: SchemaField; value: string }[] }) {
  const { prepare } = useStores()
  const values = usePrepare((s) => s.runValues)
  const busy = usePrepare((s) => s.checkState === 'reading')
  if (props.fields.length === 0) return null

  function submit(event: FormEvent) {
    event.preventDefault()
    void prepare.getState().applyRunValues()
  }

  return (
    <form className="run-fields" onSubmit={submit} aria-labelledby="run-fields-title">
      <h3 id="run-fields-title" className="prep-subtitle">
        For the whole run
      </h3>
      <p className="prep-muted">
        These apply to every row. Leave one empty to use the workbook’s Run settings sheet.
      </p>
      <div className="run-fields-grid">
        {props.fields.map(({ field }) => (
          <Field
            key={field.key}
            label={`${field.label || field.key}${field.required ? ' (required)' : ''}`}
            hint={[describeType(field), field.inputHint].filter(Boolean).join(' · ')}
            value={values[field.key] ?? ''}
            onChange={(e) => prepare.getState().setRunValue(field.key, e.target.value)}
            list={field.enumValues.length ? `run-${field.key}-values` : undefined}
          />
        ))}
      </div>
      {props.fields.map(({ field }) =>
        field.enumValues.length ? (
          <datalist key={field.key} id={`run-${field.key}-values`}>
            {field.enumValues.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        ) : null,
      )}
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        Use these values
      </button>
    </form>
  )
}
