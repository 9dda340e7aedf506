/**
 * The separator a csv's first line uses: the most frequent of comma, semicolon and tab outside
 * quotes, a tie going to the comma. The engine's reader and the sandbox's check both guess it, and
 * must guess the same, or a sheet the app accepts could be read otherwise by the service.
 */
export function likelySeparator(line: string): string {
  const counts = new Map([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ])
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
  }
  let best = ','
  for (const [separator, n] of counts) if (n > counts.get(best)!) best = separator
  return best
}
