/**
 * Comma-separated (and tab- or semicolon-separated) text, streamed record by record: the
 * encoding is decided first (encoding.ts; the reader says which it took), then the decoded text
 * is fed to the record parser (csv-parser.ts).
 */
import {
  baseName,
  openByteSource,
  sourceName,
  type ByteSource,
  type WorkbookSource,
} from '../../byte-source'
import { WorkbookFileError } from '../../limits'
import type { RowSink } from '../../validate/read-result'
import { CsvParser } from './csv-parser'
import { detectEncoding } from './encoding'

export interface CsvInfo {
  /** The encoding the text was read in, as a user would name it. */
  encoding: string
  /** The separator used. */
  separator: string
  /** Whether that was said by a `sep=` first line. */
  separatorLine: boolean
}

/** Streams a csv file's records as cells (empty fields as null) with their line-based row numbers. */
export async function readCsv(source: WorkbookSource, sink: RowSink): Promise<CsvInfo> {
  const bytes = await openByteSource(source)
  try {
    return await readCsvBytes(bytes, sourceName(source), sink)
  } finally {
    await bytes.close()
  }
}

export async function readCsvBytes(
  bytes: ByteSource,
  name: string,
  sink: RowSink,
): Promise<CsvInfo> {
  const encoding = await detectEncoding(bytes)
  // fatal: a byte sequence that is not text in the chosen encoding is an error, never U+FFFD.
  const decoder = new TextDecoder(encoding.label, { fatal: true, ignoreBOM: true })
  const parser = new CsvParser(name, sink)
  try {
    for await (const chunk of bytes.pieces(encoding.bom, bytes.size)) {
      const text = decoder.decode(chunk, { stream: true })
      if (text) parser.take(text)
    }
    const rest = decoder.decode()
    if (rest) parser.take(rest)
  } catch (error) {
    if (error instanceof WorkbookFileError) throw error
    if (error instanceof TypeError)
      throw new WorkbookFileError(
        `“${baseName(name)}” is not valid ${encoding.name} text (its BOM says so, but some bytes are not). Export it again as CSV UTF-8 and try again.`,
      )
    throw error
  }
  parser.end()
  return {
    encoding: encoding.name,
    separator: parser.separator ?? ',',
    separatorLine: parser.separatorLine,
  }
}

export function describeCsv(info: CsvInfo): string {
  const sep = info.separator === '\t' ? 'tab' : `“${info.separator}”`
  return `Read as ${info.encoding} text, fields separated by ${sep}${info.separatorLine ? ' (as its sep= line says)' : ''}.`
}
