import type { PrivateTemplate } from '../../shared/contract'
import { formatUnixMoment } from '../../shared/format'
import { Fact } from '../components/Fact'
import { ColumnHeadings } from '../components/ColumnHeadings'

const date = (unix: number) => formatUnixMoment(unix, 'date')

/** One of my private templates with its versions (newest first). */
export function PrivateTemplateCard(props: { template: PrivateTemplate }) {
  const t = props.template
  const versions = [...t.versions].sort((a, b) => b.versionNumber - a.versionNumber)
  return (
    <div className="sub-card" aria-label={`Private template ${t.name || t.templateId}`}>
      <h4>{t.name || t.templateId}</h4>
      {t.description && <p className="card-sub">{t.description}</p>}
      <dl className="facts">
        <Fact label="Status" value={t.status || '—'} />
        <Fact label="Output" value={t.primaryOutputType || '—'} />
        <Fact label="Updated" value={date(t.updatedAtUnix)} />
      </dl>
      <table className="plain-table">
        <caption className="visually-hidden">Versions of {t.name || t.templateId}</caption>
        <thead>
          <tr>
            <ColumnHeadings headings={['Version', 'Spec', 'Created', 'State']} />
          </tr>
        </thead>
        <tbody>
          {versions.length === 0 ? (
            <tr>
              <td colSpan={4}>No versions yet.</td>
            </tr>
          ) : (
            versions.map((v) => (
              <tr key={v.versionId}>
                <td>
                  <span className="run-name">Version {v.versionNumber}</span>
                  <span className="run-sub">{v.versionId}</span>
                </td>
                <td>{v.specVersion || '—'}</td>
                <td>{date(v.createdAtUnix)}</td>
                <td>
                  {[
                    v.versionId === t.publishedVersionId ? 'Published' : '',
                    v.versionId === t.latestVersionId ? 'Latest' : '',
                  ]
                    .filter(Boolean)
                    .join(', ') || '—'}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  )
}
