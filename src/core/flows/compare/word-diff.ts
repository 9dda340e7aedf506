/**
 * A word diff of two texts, for comparing a row's text output between two runs: the words both
 * share, and those only one has, in order. Longest common subsequence over words (spaces kept
 * with the word before them, so the parts join back into the texts); texts too long for that
 * are shown as one part removed and one added.
 */
export type WordPart = { op: 'same' | 'removed' | 'added'; text: string }

/** Above this many words on both sides together the diff is not worked out word by word. */
const MAX_WORDS = 4000

function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

/** Adjacent parts of the same kind as one. */
function joined(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = []
  for (const part of parts) {
    const last = out[out.length - 1]
    if (last && last.op === part.op) last.text += part.text
    else out.push({ ...part })
  }
  return out
}

export function wordDiff(a: string, b: string): WordPart[] {
  if (a === b) return a ? [{ op: 'same', text: a }] : []
  const x = words(a)
  const y = words(b)
  if (x.length + y.length > MAX_WORDS)
    return [
      ...(a ? [{ op: 'removed' as const, text: a }] : []),
      ...(b ? [{ op: 'added' as const, text: b }] : []),
    ]
  // lengths[i][j]: the longest common run of x[i..] and y[j..], in one flat array.
  const width = y.length + 1
  const lengths = new Uint16Array((x.length + 1) * width)
  for (let i = x.length - 1; i >= 0; i -= 1)
    for (let j = y.length - 1; j >= 0; j -= 1)
      lengths[i * width + j] =
        x[i]!.trim() === y[j]!.trim()
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!)
  const parts: WordPart[] = []
  let i = 0
  let j = 0
  while (i < x.length && j < y.length) {
    if (x[i]!.trim() === y[j]!.trim()) {
      parts.push({ op: 'same', text: y[j]! })
      i += 1
      j += 1
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      parts.push({ op: 'removed', text: x[i++]! })
    } else {
      parts.push({ op: 'added', text: y[j++]! })
    }
  }
  while (i < x.length) parts.push({ op: 'removed', text: x[i++]! })
  while (j < y.length) parts.push({ op: 'added', text: y[j++]! })
  return joined(parts)
}
