/** A compared row's inputs in the buyer's words, under the sheet's own column names. */

/** One input value in a buyer's words: text as typed, several values joined, a file as such. */
function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (Array.isArray(value)) return value.map(valueWords).join('; ')
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'object')
    return 'inputAssetId' in value || 'localPath' in value ? 'a file' : '…'
  return String(value)
}

/** A row's inputs under the buyer's own column names: "Message: Hello · Sequence number: 1". */
export function inputWords(inputs: Record<string, unknown>, names: Record<string, string>): string {
  return Object.entries(inputs)
    .map(([key, value]) => `${names[key] ?? key}: ${valueWords(value)}`)
    .join(' · ')
}
