/**
 * Credits spent per day or month as stacked bars (visx: SVG, so each bar is a focusable button a
 * screen reader names), and the same numbers as a table, which the "Table" switch shows instead.
 * Choosing a bar lists that period's runs.
 */
import { useEffect, useRef, useState } from 'react'
import { AxisBottom, AxisLeft } from '@visx/axis'
import { Group } from '@visx/group'
import { BarStack } from '@visx/shape'
import { scaleBand, scaleLinear, scaleOrdinal } from '@visx/scale'
import type { UsageChart as Chart } from '../../shared/usage/figures'
import { periodLabel } from '../../shared/usage/calendar'
import { formatAmount } from '../../shared/format/amounts'

const HEIGHT = 240
const MARGIN = { top: 8, right: 8, bottom: 28, left: 56 }

/** The width of an element, followed as it changes. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    setWidth(element.clientWidth)
    return () => observer.disconnect()
  }, [])
  return { ref, width }
}

type Datum = Record<string, number> & { index: number }

/** The chart's data as visx stacks it, and its scales for the inner size. */
function scales(chart: Chart, inner: { width: number; height: number }) {
  const keys = chart.series.map((_, i) => `s${i}`)
  const data: Datum[] = chart.bars.map((bar, index) => {
    const datum: Datum = { index } as Datum
    bar.values.forEach((v, i) => (datum[`s${i}`] = v))
    return datum
  })
  const max = Math.max(1, ...chart.bars.map((b) => b.totalT))
  const x = scaleBand<number>({
    domain: data.map((d) => d.index),
    range: [0, inner.width],
    padding: 0.25,
  })
  const y = scaleLinear<number>({ domain: [0, max], range: [inner.height, 0], nice: true })
  const color = scaleOrdinal<string, string>({
    domain: keys,
    range: keys.map((_, i) => `usage-series-${i}`),
  })
  return { keys, data, x, y, color }
}

export function UsageBars(props: {
  chart: Chart
  unitLabel: string
  chosen: string | null
  onChoose: (period: string) => void
}) {
  const { chart, unitLabel } = props
  const { ref, width } = useWidth()
  const inner = {
    width: Math.max(0, width - MARGIN.left - MARGIN.right),
    height: HEIGHT - MARGIN.top - MARGIN.bottom,
  }
  const { keys, data, x, y, color } = scales(chart, inner)
  const every = Math.ceil(chart.bars.length / Math.max(1, Math.floor(inner.width / 64)))
  const unit = chart.unit === 'day' ? 'day' : 'month'
  return (
    <div ref={ref} className="usage-chart">
      {width > 0 && (
        <svg
          width={width}
          height={HEIGHT}
          role="group"
          aria-label={`Credits spent per ${unit}: a chart. The Table switch shows the same numbers as a table.`}
        >
          <Group left={MARGIN.left} top={MARGIN.top}>
            <AxisLeft
              scale={y}
              numTicks={4}
              axisClassName="usage-axis"
              tickFormat={(v) => String(v)}
              tickLabelProps={{ className: 'usage-tick', textAnchor: 'end', dx: -4, dy: 3 }}
            />
            <AxisBottom
              top={inner.height}
              scale={x}
              axisClassName="usage-axis"
              tickValues={data
                .map((d) => d.index)
                .filter((i) => (chart.bars.length - 1 - i) % every === 0)}
              tickFormat={(i) => periodLabel(chart.bars[i as number]?.period ?? '')}
              tickLabelProps={{ className: 'usage-tick', textAnchor: 'middle' }}
            />
            <BarStack<Datum, string>
              data={data}
              keys={keys}
              x={(d) => d.index}
              xScale={x}
              yScale={y}
              color={(k) => color(k)}
            >
              {(stacks) =>
                chart.bars.map((bar, i) => (
                  <PeriodBar
                    key={bar.period}
                    period={bar.period}
                    label={`${periodLabel(bar.period)}: ${formatAmount(bar.totalT, unitLabel)}. Show its runs.`}
                    chosen={props.chosen === bar.period}
                    onChoose={props.onChoose}
                    hit={{ x: x(i) ?? 0, width: x.bandwidth(), height: inner.height }}
                    segments={stacks.flatMap((stack) => {
                      const b = stack.bars[i]
                      return b && b.height > 0 ? [{ ...b, key: stack.key }] : []
                    })}
                  />
                ))
              }
            </BarStack>
          </Group>
        </svg>
      )}
    </div>
  )
}

interface Segment {
  key: string
  color: string
  x: number
  y: number
  width: number
  height: number
}

/** One period's bar: a button (Enter or Space chooses it) over its stacked segments. */
function PeriodBar(props: {
  period: string
  label: string
  chosen: boolean
  onChoose: (period: string) => void
  hit: { x: number; width: number; height: number }
  segments: Segment[]
}) {
  return (
    <g
      role="button"
      tabIndex={0}
      className={`usage-bar${props.chosen ? ' usage-bar-chosen' : ''}`}
      aria-label={props.label}
      aria-pressed={props.chosen}
      onClick={() => props.onChoose(props.period)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return
        e.preventDefault()
        props.onChoose(props.period)
      }}
    >
      <rect
        className="usage-bar-hit"
        x={props.hit.x}
        y={0}
        width={props.hit.width}
        height={props.hit.height}
      />
      {props.segments.map((b) => (
        <rect key={b.key} className={b.color} x={b.x} y={b.y} width={b.width} height={b.height} />
      ))}
    </g>
  )
}

/** The chart's numbers as a table: a row per period, a column per series, and the total. */
export function UsageTable(props: { chart: Chart; unitLabel: string; caption: string }) {
  const { chart, unitLabel } = props
  return (
    <div className="usage-table-scroll" tabIndex={0} role="region" aria-label={props.caption}>
      <table className="plain-table usage-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{chart.unit === 'day' ? 'Day' : 'Month'}</th>
            {chart.series.map((s) => (
              <th key={s.key} scope="col">
                {s.name}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {chart.bars.map((bar) => (
            <tr key={bar.period}>
              <th scope="row">{periodLabel(bar.period)}</th>
              {bar.values.map((v, i) => (
                <td key={chart.series[i]!.key} className="num">
                  {formatAmount(v, unitLabel)}
                </td>
              ))}
              <td className="num">{formatAmount(bar.totalT, unitLabel)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The series' names beside their colours. */
export function UsageLegend(props: { chart: Chart }) {
  return (
    <ul className="usage-legend" aria-label="Colours of the chart">
      {props.chart.series.map((s, i) => (
        <li key={s.key}>
          <span className={`usage-swatch usage-series-${i}`} aria-hidden="true" />
          {s.name}
        </li>
      ))}
    </ul>
  )
}
